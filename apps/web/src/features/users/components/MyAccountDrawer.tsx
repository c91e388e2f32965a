import { Button, Divider, Drawer, Stack, TextInput } from '@mantine/core';
import type { TMe, TUpdateMe } from '@warmpath/shared';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { GoogleConnectionCard } from '../../sources/components/GoogleConnectionCard.tsx';
import { LinkedinConnectionCard } from '../../sources/components/LinkedinConnectionCard.tsx';
import { useUpdateMe } from '../api.ts';
import { PrivacySection } from './PrivacySection.tsx';

export type MyAccountDrawerProps = { user: TMe; opened: boolean; onClose: () => void };

/**
 * My Account side panel: the user's own names (no validation, spec section 5), their Google and LinkedIn
 * connections, and what teammates see of their network (Privacy, issue 22).
 */
export function MyAccountDrawer({ user, opened, onClose }: MyAccountDrawerProps) {
  const updateMe = useUpdateMe();
  const form = useForm<TUpdateMe>({ defaultValues: { firstName: user.firstName, lastName: user.lastName } });
  const { reset } = form;

  useEffect(() => {
    if (opened) reset({ firstName: user.firstName, lastName: user.lastName });
  }, [opened, user.firstName, user.lastName, reset]);

  const save = form.handleSubmit((names) => updateMe.mutate(names));

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title="My Account"
      closeButtonProps={{ 'aria-label': 'Close My Account' }}
    >
      <form onSubmit={save}>
        <Stack>
          <TextInput label="Firstname" {...form.register('firstName')} />
          <TextInput label="Lastname" {...form.register('lastName')} />
          <Button type="submit" loading={updateMe.isPending} disabled={!form.formState.isDirty}>
            Save
          </Button>
        </Stack>
      </form>
      <Stack mt="xl">
        <GoogleConnectionCard user={user} />
        <LinkedinConnectionCard user={user} />
      </Stack>
      <Divider my="xl" />
      <PrivacySection opened={opened} />
    </Drawer>
  );
}
