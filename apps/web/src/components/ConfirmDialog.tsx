import { Button, Group, Modal } from '@mantine/core';

export type ConfirmDialogProps = {
  opened: boolean;
  /** The spec's question, e.g. 'Are you sure you want to delete this persona?'. */
  message: string;
  onCancel: () => void;
  onConfirm: () => void;
  confirming?: boolean;
};

/** A yes-or-no question before a destructive action: Cancel and Confirm. */
export function ConfirmDialog({ opened, message, onCancel, onConfirm, confirming = false }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={message} withCloseButton={false} centered>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={confirming}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={confirming}>
          Confirm
        </Button>
      </Group>
    </Modal>
  );
}
