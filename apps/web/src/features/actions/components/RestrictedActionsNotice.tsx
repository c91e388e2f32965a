import { Alert, Text } from '@mantine/core';

/** What the restricted role sees in place of actions data, which it does not load (spec section 6). */
export function RestrictedActionsNotice() {
  return (
    <Alert color="gray" variant="light">
      <Text size="sm">Actions are not available to your role. Ask an admin of your workspace for access.</Text>
    </Alert>
  );
}
