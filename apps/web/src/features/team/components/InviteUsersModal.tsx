import { Modal } from '@mantine/core';
import { useInviteDraft } from '../useInviteDraft.ts';
import { InviteTeammatesForm } from './InviteTeammatesForm.tsx';

export type InviteUsersModalProps = { opened: boolean; onClose: () => void };

/** The Users page's Invite users modal; it starts empty each time it opens. */
export function InviteUsersModal({ opened, onClose }: InviteUsersModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Invite users"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <InviteUsersModalBody onInvited={onClose} />
    </Modal>
  );
}

// Rendered only while the modal is open, so its invitees are dropped when it closes.
function InviteUsersModalBody({ onInvited }: { onInvited: () => void }) {
  const draft = useInviteDraft();
  return <InviteTeammatesForm draft={draft} onInvited={onInvited} />;
}
