import { Drawer } from '@mantine/core';
import type { TRecommendedAction } from '@warmpath/shared';
import { useSession } from '../../../app/useSession.ts';
import { userFullName } from '../actionsDisplay.ts';
import { AskIntroPanel } from './AskIntroPanel.tsx';
import { EngageProspectPanel } from './EngageProspectPanel.tsx';

export type ActionPanelDrawerProps = {
  /** The action whose panel is open, or null when closed. */
  action: TRecommendedAction | null;
  onClose: () => void;
};

/** The side panel of a recommended action: 'Ask intro' for an ask, 'Engage with Prospect' for a direct message. */
export function ActionPanelDrawer({ action, onClose }: ActionPanelDrawerProps) {
  const { user } = useSession();
  const isAsk = action?.actionType === 'ask-intro';
  const panelProps = {
    userFullName: user ? userFullName(user) : '',
    isGoogleConnected: user?.isGoogleConnected ?? false,
    onSent: onClose,
  };
  return (
    <Drawer
      opened={action !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={isAsk ? 'Ask intro' : 'Engage with Prospect'}
      closeButtonProps={{ 'aria-label': 'Close the panel' }}
      styles={{ title: { fontWeight: 600 } }}
    >
      {action === null ? null : isAsk ? (
        <AskIntroPanel key={action.actionId} action={action} userId={user?.id ?? ''} {...panelProps} />
      ) : (
        <EngageProspectPanel key={action.actionId} action={action} {...panelProps} />
      )}
    </Drawer>
  );
}
