import { Center, Title } from '@mantine/core';

/** A whole-page message: the backend being down, an unexpected error. */
export function MessageScreen({ message }: { message: string }) {
  return (
    <Center component="main" h="100vh" p="md">
      <Title order={1} size="h3" fw={500} ta="center" maw={560}>
        {message}
      </Title>
    </Center>
  );
}
