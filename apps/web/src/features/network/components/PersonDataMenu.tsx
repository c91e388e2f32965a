import { ActionIcon, Menu } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { useSession } from '../../../lib/useSession.ts';
import { useErasePerson, useExportPerson } from '../../workspace/api.ts';

export type PersonDataMenuProps = { personId: string; name: string };

/**
 * An admin's menu on a prospect (GDPR articles 15 and 17): download everything the workspace holds
 * about them, or erase them after a confirmation. Nobody else sees it.
 */
export function PersonDataMenu({ personId, name }: PersonDataMenuProps) {
  const { user } = useSession();
  const exportPerson = useExportPerson();
  const erasePerson = useErasePerson();
  const [confirming, setConfirming] = useState(false);
  if (user?.role !== 'admin') return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Personal data of ${name}`}>
            <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true">
              <circle cx={12} cy={5} r={2} fill="currentColor" />
              <circle cx={12} cy={12} r={2} fill="currentColor" />
              <circle cx={12} cy={19} r={2} fill="currentColor" />
            </svg>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Personal data</Menu.Label>
          <Menu.Item onClick={() => exportPerson.mutate({ id: personId, name, format: 'json' })}>
            Export data (JSON)
          </Menu.Item>
          <Menu.Item onClick={() => exportPerson.mutate({ id: personId, name, format: 'csv' })}>
            Export data (CSV)
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => setConfirming(true)}>
            Erase person
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ConfirmDialog
        opened={confirming}
        message={`Erase ${name}? Their mail and meeting records, connections, signals and actions are deleted, and later syncs and imports will not add them again. This cannot be undone.`}
        confirming={erasePerson.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => erasePerson.mutate({ id: personId, name }, { onSettled: () => setConfirming(false) })}
      />
    </>
  );
}
