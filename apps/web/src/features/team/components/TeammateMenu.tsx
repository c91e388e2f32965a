import { ActionIcon, Menu } from '@mantine/core';
import type { Role, TTeammate } from '@warmpath/shared';
import { otherRoles, ROLE_LABELS } from '../teammateDisplay.ts';

export type TeammateMenuProps = {
  teammate: TTeammate;
  /** The logged-in user's own row: nobody acts on themselves. */
  disabled: boolean;
  onChangeRole: (role: Role) => void;
  onRemove: () => void;
};

/** A row's menu: move the teammate to another role, or remove them. */
export function TeammateMenu({ teammate, disabled, onChangeRole, onRemove }: TeammateMenuProps) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" disabled={disabled} aria-label={`Actions for ${teammate.fullName}`}>
          <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true">
            <circle cx={5} cy={12} r={2} fill="currentColor" />
            <circle cx={12} cy={12} r={2} fill="currentColor" />
            <circle cx={19} cy={12} r={2} fill="currentColor" />
          </svg>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Change role</Menu.Label>
        {otherRoles(teammate.role).map((role) => (
          <Menu.Item key={role} onClick={() => onChangeRole(role)}>
            {ROLE_LABELS[role]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" onClick={onRemove}>
          Remove user
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
