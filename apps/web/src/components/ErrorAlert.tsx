import { Alert, Button, Group, Text } from '@mantine/core';

export type ErrorAlertProps = { message: string; onRetry?: () => void };

/** A list or a form that could not load: the message, and a way to try again. */
export function ErrorAlert({ message, onRetry }: ErrorAlertProps) {
  return (
    <Alert color="red" variant="light" role="alert">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{message}</Text>
        {onRetry ? (
          <Button size="xs" variant="default" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
