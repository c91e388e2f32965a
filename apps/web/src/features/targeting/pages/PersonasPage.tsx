import { Stack } from '@mantine/core';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PersonaForm } from '../components/PersonaForm.tsx';
import { PersonaList } from '../components/PersonaList.tsx';

/** Targeting, Target Personas tab: create personas, see them, delete them. */
export function PersonasPage() {
  return (
    <>
      <PageHeader title="Target Personas" />
      <Stack gap="xl">
        <PersonaForm />
        <PersonaList />
      </Stack>
    </>
  );
}
