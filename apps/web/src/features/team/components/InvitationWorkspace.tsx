import { Avatar, Group, Stack, Text, Title } from '@mantine/core';
import type { TInviteInfo } from '@warmpath/shared';
import { useId } from 'react';

function initialOf(name: string): string {
  return name.trim().charAt(0).toUpperCase();
}

type Member = TInviteInfo['members'][number];

/** Members with a stable key: two people may share a name, so a repeated name counts its occurrences. */
function keyedMembers(members: readonly Member[]): { key: string; member: Member }[] {
  const seen = new Map<string, number>();
  return members.map((member) => {
    const occurrence = (seen.get(member.name) ?? 0) + 1;
    seen.set(member.name, occurrence);
    return { key: `${member.name}#${occurrence}`, member };
  });
}

/** The workspace an invitation leads to: its logo (or initial), its name and who is in it already. */
export function InvitationWorkspace({ info }: { info: TInviteInfo }) {
  const membersTitleId = useId();
  return (
    <Stack gap="md">
      <Group gap="md" wrap="nowrap">
        <Avatar src={info.workspaceLogo} alt={`${info.workspaceName} logo`} size="lg" radius="md" color="blue">
          {initialOf(info.workspaceName)}
        </Avatar>
        <div>
          <Text size="sm" c="dimmed">
            You are invited to join
          </Text>
          <Title order={2} size="h3">
            {info.workspaceName}
          </Title>
        </div>
      </Group>
      {info.members.length === 0 ? null : (
        <Stack gap="xs" component="section" aria-labelledby={membersTitleId}>
          <Text size="sm" fw={600} id={membersTitleId}>
            Already in the workspace
          </Text>
          <Group gap="md" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {keyedMembers(info.members).map(({ key, member }) => (
              <Group key={key} component="li" gap={6} wrap="nowrap">
                <Avatar src={member.avatar} alt="" size="sm" radius="xl" aria-hidden="true">
                  {initialOf(member.name)}
                </Avatar>
                <Text size="sm">{member.name}</Text>
              </Group>
            ))}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
