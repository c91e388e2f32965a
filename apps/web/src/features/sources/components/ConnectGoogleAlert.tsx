import { Alert, Button, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@warmpath/shared';
import { useConnectGoogleHere } from '../useConnectGoogleHere.ts';

/** Sending needs Google (spec section 5): the spec's message, and the connect flow, back to this page. */
export function ConnectGoogleAlert() {
  const { connect, connecting } = useConnectGoogleHere();
  return (
    <Alert color="yellow" variant="light" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{MESSAGES.mustConnectGoogle}</Text>
        <Button size="xs" loading={connecting} onClick={connect}>
          Connect Google
        </Button>
      </Stack>
    </Alert>
  );
}
