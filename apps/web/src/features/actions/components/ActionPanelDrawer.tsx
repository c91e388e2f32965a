import { Drawer } from '@mantine/core';
import type { TPastAction, TRecommendedAction } from '@warmpath/shared';
import { useSession } from '../../../lib/useSession.ts';
import { userFullName } from '../actionsDisplay.ts';
import { AskIntroPanel } from './AskIntroPanel.tsx';
import { EngageProspectPanel } from './EngageProspectPanel.tsx';
import { ThankYouPanel } from './ThankYouPanel.tsx';

/** What the side panel is open for: a recommended action, or the thank-you for an answered intro request. */
export type ActionPanel =
  | { kind: 'recommended'; action: TRecommendedAction }
  | { kind: 'thank-you'; action: TPastAction };

export type ActionPanelDrawerProps = {
  /** The open panel, or null when closed. */
  panel: ActionPanel | null;
  onClose: () => void;
};

function titleOf(panel: ActionPanel | null) {
  if (panel?.kind === 'thank-you') return 'Thank-you note';
  return panel?.action.actionType === 'ask-intro' ? 'Ask intro' : 'Engage with Prospect';
}

/**
 * The side panel of an action: 'Ask intro' for an ask, 'Engage with Prospect' for a direct message,
 * 'Thank-you note' for a past intro request that got a reply.
 */
export function ActionPanelDrawer({ panel, onClose }: ActionPanelDrawerProps) {
  const { user } = useSession();
  const panelProps = {
    userFullName: user ? userFullName(user) : '',
    isGoogleConnected: user?.isGoogleConnected ?? false,
    onSent: onClose,
  };
  return (
    <Drawer
      opened={panel !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={titleOf(panel)}
      closeButtonProps={{ 'aria-label': 'Close the panel' }}
      styles={{ title: { fontWeight: 600 } }}
    >
      {panel === null ? null : panel.kind === 'thank-you' ? (
        <ThankYouPanel key={panel.action.actionId} action={panel.action} {...panelProps} />
      ) : panel.action.actionType === 'ask-intro' ? (
        <AskIntroPanel key={panel.action.actionId} action={panel.action} userId={user?.id ?? ''} {...panelProps} />
      ) : (
        <EngageProspectPanel key={panel.action.actionId} action={panel.action} {...panelProps} />
      )}
    </Drawer>
  );
}
