import { Button, Group, Modal } from '@mantine/core';
import { useState } from 'react';
import { hasErrorCode } from '../../../lib/api.ts';

/**
 * The same intro asked of the same person within 30 days: the server asks (NEEDS_CONFIRMATION, with
 * when and whom in its message) and the sender decides. `ask` sends; once confirmed it sends again with
 * `confirmRepeat`.
 */
export function useRepeatConfirmation<T extends { confirmRepeat?: boolean }>(
  send: (body: T, handlers: { onError: (error: Error) => void }) => void,
) {
  const [pending, setPending] = useState<{ body: T; question: string } | null>(null);
  const ask = (body: T) =>
    send(body, {
      onError: (error) => {
        if (hasErrorCode(error, 'NEEDS_CONFIRMATION')) setPending({ body, question: error.message });
      },
    });
  const dialog = (
    <Modal
      opened={pending !== null}
      onClose={() => setPending(null)}
      title={pending?.question ?? ''}
      withCloseButton={false}
      centered
    >
      <Group justify="flex-end">
        <Button variant="default" onClick={() => setPending(null)}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            if (pending) send({ ...pending.body, confirmRepeat: true }, { onError: () => {} });
            setPending(null);
          }}
        >
          Ask again
        </Button>
      </Group>
    </Modal>
  );
  return { ask, dialog };
}
