import { Alert, Button, Group, List, Text } from '@mantine/core';
import type { TUndeliveredEmail } from '@warmpath/shared';
import { useRetryEmail, useUndeliveredEmails } from '../api.ts';

/** E-mails that could not leave through the member's Google account: visible, and sendable again. */
export function UndeliveredEmails({ enabled }: { enabled: boolean }) {
  const emails = useUndeliveredEmails(enabled);
  const retry = useRetryEmail();
  if (!emails.data || emails.data.length === 0) return null;
  return (
    <Alert color="orange" title={`E-mails not sent (${emails.data.length})`}>
      <List size="sm" spacing="xs" aria-label="E-mails not sent">
        {emails.data.map((email: TUndeliveredEmail) => (
          <List.Item key={email.id}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <div>
                <Text size="sm" fw={500}>
                  {email.subject} → {email.to.join(', ')}
                </Text>
                <Text size="xs" c="dimmed">
                  {email.status === 'failed'
                    ? `Failed after ${email.attempts} attempts: ${email.lastError ?? 'unknown error'}`
                    : `Retrying (attempt ${email.attempts} failed: ${email.lastError ?? 'unknown error'})`}
                </Text>
              </div>
              {email.status === 'failed' && (
                <Button size="xs" variant="light" onClick={() => retry.mutate(email.id)} loading={retry.isPending}>
                  Send again
                </Button>
              )}
            </Group>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
