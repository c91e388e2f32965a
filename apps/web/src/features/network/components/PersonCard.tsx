import { Avatar, Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { initialOf } from '../networkDisplay.ts';

export type PersonCardPerson = {
  fullName: string;
  avatar: string | null;
  jobTitle: string | null;
  companyName: string | null;
};

export type PersonCardProps = {
  /** What the person is to the request: 'Ask', 'Intro to'. */
  heading: string;
  person: PersonCardPerson;
  children?: ReactNode;
};

/** A person of a warm-intro panel: picture or initial, name, job and company. */
export function PersonCard({ heading, person, children }: PersonCardProps) {
  const role = [person.jobTitle, person.companyName].filter(Boolean).join(' at ');
  return (
    <Card withBorder padding="sm" radius="md" component="section" aria-label={`${heading}: ${person.fullName}`}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" mb={6}>
        {heading}
      </Text>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar src={person.avatar} alt="" radius="xl">
          {initialOf(person.fullName)}
        </Avatar>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600}>
            {person.fullName}
          </Text>
          {role ? <Text size="xs">{role}</Text> : null}
          {children}
        </Stack>
      </Group>
    </Card>
  );
}
