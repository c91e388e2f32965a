import { Avatar, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { TruncatedText } from '../../../components/TruncatedText.tsx';
import { initialOf } from '../../network/networkDisplay.ts';

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
    <Group gap={8} wrap="nowrap">
      <Avatar src={avatar} alt="" radius="xl" size={30}>
        {initialOf(fullName)}
      </Avatar>
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <TruncatedText text={fullName} href={linkedInUrl} size="sm" fw={600} />
        {children}
      </Stack>
    </Group>
  );
}

/** A company in a table cell: its logo or initial and its name; empty when unknown. */
export function CompanyCell({ company }: { company: { companyName: string; companyLogo: string | null } | null }) {
  if (!company) return null;
  return (
    <Group gap={6} wrap="nowrap">
      <Avatar src={company.companyLogo} alt="" size={24} radius="sm">
        {initialOf(company.companyName)}
      </Avatar>
      <TruncatedText text={company.companyName} size="sm" lines={2} />
    </Group>
  );
}

/** Text of a cell that may be unknown, on up to two lines, then cut (the whole text on hover and focus). */
export function TextCell({ text, size = 'sm' }: { text: string | null; size?: 'xs' | 'sm' }) {
  return <TruncatedText text={text ?? ''} size={size} lines={2} />;
}
