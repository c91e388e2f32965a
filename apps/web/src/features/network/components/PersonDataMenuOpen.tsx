import { Menu } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { useOpenedOnMount } from '../../../components/useFocusOnMount.ts';
import { useErasePerson, useExportPerson } from '../../workspace/api.ts';
import { PersonDataButton, type PersonDataMenuProps } from './PersonDataMenu.tsx';

/**
 * The menu itself, with its confirmation: loaded on the first click of the button (PersonDataMenu),
 * so it opens as it mounts.
 */
export function PersonDataMenuOpen({ personId, name }: PersonDataMenuProps) {
  const exportPerson = useExportPerson();
  const erasePerson = useErasePerson();
  const [confirming, setConfirming] = useState(false);
  const menu = useOpenedOnMount<HTMLButtonElement>();
  return (
    <>
      <Menu position="bottom-end" withinPortal opened={menu.opened} onChange={menu.setOpened}>
        <Menu.Target>
          <PersonDataButton ref={menu.ref} name={name} />
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
