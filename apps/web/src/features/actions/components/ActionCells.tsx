import { Anchor, Avatar, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { initialOf } from '../../network/networkDisplay.ts';

const TEXT_MAX_WIDTH = 140;

export type PersonCellProps = {
  fullName: string;
  avatar: string | null;
  linkedInUrl?: string | null;
  /** A line under the name: a badge, a job title. */
  children?: ReactNode;
};

/** A person in a table cell: picture or initial, the name (a link to LinkedIn when known), and a detail. */
export function PersonCell({ fullName, avatar, linkedInUrl, children }: PersonCellProps) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={avatar} alt="" radius="xl" size={32}>
        {initialOf(fullName)}
      </Avatar>
      <Stack gap={2} style={{ minWidth: 0 }}>
        {linkedInUrl ? (
          <Anchor
            href={linkedInUrl}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            fw={600}
            truncate
            maw={TEXT_MAX_WIDTH}
          >
            {fullName}
          </Anchor>
        ) : (
          <Text size="sm" fw={600} truncate maw={TEXT_MAX_WIDTH}>
            {fullName}
          </Text>
        )}
        {children}
      </Stack>
    </Group>
  );
}

/** A company in a table cell: its logo or initial and its name; empty when unknown. */
export function CompanyCell({ company }: { company: { companyName: string; companyLogo: string | null } | null }) {
  if (!company) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Avatar src={company.companyLogo} alt="" size="sm" radius="sm">
        {initialOf(company.companyName)}
      </Avatar>
      <Text size="sm" truncate maw={TEXT_MAX_WIDTH}>
        {company.companyName}
      </Text>
    </Group>
  );
}

/** Text of a cell that may be unknown, cut with an ellipsis (the whole text on hover). */
export function TextCell({ text }: { text: string | null }) {
  return (
    <Text size="sm" truncate maw={TEXT_MAX_WIDTH} title={text ?? undefined}>
      {text ?? ''}
    </Text>
  );
}
