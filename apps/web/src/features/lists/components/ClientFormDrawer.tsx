import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Drawer, Stack, TextInput } from '@mantine/core';
import { type TClient, type TClientFields, ZClientFields } from '@warmpath/shared';
import { useForm } from 'react-hook-form';
import { type ClientList, type ListQuery, useSaveClient } from '../api.ts';
import {
  allRequiredEmpty,
  type ClientFormValues,
  clientFormDefaults,
  IDENTITY_FIELDS,
  toClientRequest,
} from '../clientForm.ts';
import { TagField } from './TagField.tsx';

export type ClientFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The list the panel was opened from: a new client joins it. */
  list: ClientList;
  /** The row being edited, or null to add one. */
  editing: TClient | null;
  /** The page on screen, where a new client shows up. */
  shown: ListQuery;
};

/** Spec section 2's side panel 'Add client or ally', for a new client or an existing one. */
export function ClientFormDrawer({ opened, onClose, list, editing, shown }: ClientFormDrawerProps) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title="Add client or ally"
      closeButtonProps={{ 'aria-label': 'Close Add client or ally' }}
    >
      {/* Mounted afresh at each opening: the form starts from the row, or empty. */}
      {opened ? <ClientForm list={list} editing={editing} shown={shown} onSaved={onClose} /> : null}
    </Drawer>
  );
}

type TextFieldName = Exclude<keyof ClientFormValues, 'tag'>;

const TEXT_FIELDS: readonly { name: TextFieldName; label: string; type?: string; autoComplete?: string }[] = [
  { name: 'firstName', label: 'First name', autoComplete: 'off' },
  { name: 'lastName', label: 'Last name', autoComplete: 'off' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'off' },
  { name: 'companyName', label: 'Company name', autoComplete: 'off' },
  { name: 'companyDomain', label: 'Company Domain', autoComplete: 'off' },
  { name: 'linkedinUrl', label: 'Linkedin profile URL', type: 'url', autoComplete: 'off' },
  { name: 'contactOwner', label: 'Contact owner', type: 'email', autoComplete: 'off' },
];

type ClientFormProps = Omit<ClientFormDrawerProps, 'opened' | 'onClose'> & { onSaved: () => void };

function ClientForm({ list, editing, shown, onSaved }: ClientFormProps) {
  const save = useSaveClient(list, shown);
  const form = useForm<ClientFormValues, unknown, TClientFields>({
    resolver: zodResolver(ZClientFields),
    defaultValues: clientFormDefaults(editing),
  });
  const { errors } = form.formState;
  const empty = allRequiredEmpty(form.watch());

  const submit = form.handleSubmit((fields) => {
    save.mutate(toClientRequest(fields, editing, list), { onSuccess: onSaved });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {TEXT_FIELDS.map(({ name, label, type, autoComplete }) => (
          <TextInput
            key={name}
            label={label}
            type={type}
            autoComplete={autoComplete}
            description={name === 'contactOwner' ? "Optional: the contact owner's e-mail" : undefined}
            withAsterisk={name !== 'contactOwner'}
            disabled={editing !== null && IDENTITY_FIELDS.has(name)}
            error={errors[name]?.message}
            {...form.register(name)}
          />
        ))}
        <TagField
          initialValue={form.getValues('tag') ?? ''}
          onChange={(tag) => form.setValue('tag', tag, { shouldDirty: true })}
          error={errors.tag?.message}
        />
        <Button type="submit" disabled={empty} loading={save.isPending}>
          {editing ? 'Update' : 'Create'}
        </Button>
      </Stack>
    </form>
  );
}
