import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { lazy, type Ref, Suspense, useState } from 'react';
import { useSession } from '../../../lib/useSession.ts';

export type PersonDataMenuProps = { personId: string; name: string };

// The menu (Mantine's floating layer) and its confirmation dialog are not part of the network page's
// first script (issue 26): they load on the first click of a row's button.
const PersonDataMenuOpen = lazy(async () => ({
  default: (await import('./PersonDataMenuOpen.tsx')).PersonDataMenuOpen,
}));

/**
 * An admin's menu on a prospect (GDPR articles 15 and 17): download everything the workspace holds
 * about them, or erase them after a confirmation. Nobody else sees it.
 */
export function PersonDataMenu({ personId, name }: PersonDataMenuProps) {
  const { user } = useSession();
  const [used, setUsed] = useState(false);
  if (user?.role !== 'admin') return null;
  const button = <PersonDataButton name={name} onClick={() => setUsed(true)} />;
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <PersonDataMenuOpen personId={personId} name={name} />
    </Suspense>
  );
}

type PersonDataButtonProps = ActionIconProps & {
  name: string;
  onClick?: () => void;
  ref?: Ref<HTMLButtonElement>;
};

/** The row's '⋮' button, the same before and after the menu's code is there (the menu's target). */
export function PersonDataButton({ name, ...others }: PersonDataButtonProps) {
  return (
    <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Personal data of ${name}`} {...others}>
      <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true">
        <circle cx={12} cy={5} r={2} fill="currentColor" />
        <circle cx={12} cy={12} r={2} fill="currentColor" />
        <circle cx={12} cy={19} r={2} fill="currentColor" />
      </svg>
    </ActionIcon>
  );
}
