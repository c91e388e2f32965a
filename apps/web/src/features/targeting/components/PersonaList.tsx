import { ActionIcon, Badge, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { MESSAGES, type TPersona } from '@warmpath/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useDeletePersona, usePersonas } from '../api.ts';

const SKELETON_CARDS = 3;

/** The user's personas, each deletable after confirmation. */
export function PersonaList() {
  const personas = usePersonas();
  const deletePersona = useDeletePersona();
  const [pendingDeletion, setPendingDeletion] = useState<TPersona | null>(null);

  const confirmDeletion = () => {
    if (!pendingDeletion) return;
    deletePersona.mutate(pendingDeletion.id, { onSettled: () => setPendingDeletion(null) });
  };

  if (personas.isPending) {
    return (
      <Stack role="status" aria-busy="true" aria-label="Loading personas">
        {Array.from({ length: SKELETON_CARDS }, (_, index) => `persona-skeleton-${index}`).map((key) => (
          <Skeleton key={key} height={88} radius="md" />
        ))}
      </Stack>
    );
  }
  if (personas.isError) {
    return <ErrorAlert message={personas.error.message} onRetry={() => void personas.refetch()} />;
  }
  if (personas.data.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="lg">
        No personas yet. Create your first one above.
      </Text>
    );
  }

  return (
    <>
      <Stack component="ul" aria-label="Personas" p={0} m={0} style={{ listStyle: 'none' }}>
        {personas.data.map((persona) => (
          <Card component="li" key={persona.id} withBorder radius="md" padding="md">
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={6}>
                <Text fw={600}>{persona.name}</Text>
                <BadgeLine label="Job departments" values={persona.jobDepartments} />
                <BadgeLine label="Seniorities" values={persona.seniorities} />
                <BadgeLine label="Custom job titles" values={persona.customJobTitles} />
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete persona ${persona.name}`}
                onClick={() => setPendingDeletion(persona)}
              >
                <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true">
                  <path
                    d="M9 3h6l1 2h4v2H4V5h4l1-2zm-3 6h12l-1 12H7L6 9zm4 2v8h2v-8h-2zm4 0v8h2v-8h-2z"
                    fill="currentColor"
                  />
                </svg>
              </ActionIcon>
            </Group>
          </Card>
        ))}
      </Stack>
      <ConfirmDialog
        opened={pendingDeletion !== null}
        message={MESSAGES.deletePersonaConfirm}
        onCancel={() => setPendingDeletion(null)}
        onConfirm={confirmDeletion}
        confirming={deletePersona.isPending}
      />
    </>
  );
}

function BadgeLine({ label, values }: { label: string; values: readonly string[] }) {
  if (values.length === 0) return null;
  return (
    <Group gap={6}>
      <Text size="xs" c="dimmed">
        {label}:
      </Text>
      {values.map((value) => (
        <Badge key={value} variant="light" color="gray" tt="none">
          {value}
        </Badge>
      ))}
    </Group>
  );
}
