import { Center, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A whole-page message: the backend being down, an unexpected error. */
export function MessageScreen({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <Center component="main" h="100vh" p="md">
      <Stack align="center" gap="md">
        <Title order={1} size="h3" fw={500} ta="center" maw={560}>
          {message}
        </Title>
        {children}
      </Stack>
    </Center>
  );
}
