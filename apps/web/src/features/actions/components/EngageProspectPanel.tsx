import { Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  directMessageSubject,
  type TRecommendedAction,
  type TSendDirectMessageActionBody,
  ZSendDirectMessageActionBody,
} from '@warmpath/shared';
import { type FormEvent, useState } from 'react';
import { useSendDirectMessage } from '../../intros/api.ts';
import { PersonCard } from '../../network/components/PersonCard.tsx';
import { ConnectGoogleAlert } from '../../sources/components/ConnectGoogleAlert.tsx';
import { actionTarget, directMessagePrefill } from '../actionsDisplay.ts';
import { ActionSignals } from './ActionSignals.tsx';

export type EngageProspectPanelProps = {
  action: TRecommendedAction;
  userFullName: string;
  isGoogleConnected: boolean;
  onSent: () => void;
};

const MESSAGE_ROWS = 8;

/** 'Engage with Prospect': how to reach them, the signals, and the editable message e-mailed to them. */
export function EngageProspectPanel({ action, userFullName, isGoogleConnected, onSent }: EngageProspectPanelProps) {
  const { person, company } = actionTarget(action);
  return (
    <Stack gap="md">
      <PersonCard
        heading="Prospect"
        person={{
          fullName: person.fullName,
          avatar: person.avatar,
          jobTitle: person.jobTitle,
          companyName: company?.companyName ?? null,
        }}
      />
      <Stack gap={4}>
        <ContactLine label="Email" value={person.email ?? 'Unknown email'} />
        <ContactLine label="Phone" value={person.phoneNumber ?? 'Unknown phone number'} />
      </Stack>
      <ActionSignals signals={action.signals} />
      {isGoogleConnected ? (
        <DirectMessageForm action={action} userFullName={userFullName} onSent={onSent} />
      ) : (
        <ConnectGoogleAlert />
      )}
    </Stack>
  );
}

function ContactLine({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={600} w={48}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Group>
  );
}

type DirectMessageFormProps = { action: TRecommendedAction; userFullName: string; onSent: () => void };

function DirectMessageForm({ action, userFullName, onSent }: DirectMessageFormProps) {
  const [subject, setSubject] = useState(() => directMessageSubject(userFullName));
  const [message, setMessage] = useState(() => directMessagePrefill(action, userFullName));
  const send = useSendDirectMessage();
  const { person } = actionTarget(action);
  // Spec section 5: a direct message needs the prospect's e-mail.
  const email = person.email;
  const body: TSendDirectMessageActionBody | null = email
    ? { actionId: action.actionId, email, prospectContactId: person.id, subject, message }
    : null;
  const valid = body !== null && ZSendDirectMessageActionBody.safeParse(body).success;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (body && valid) send.mutate(body, { onSuccess: onSent });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Subject"
          required
          value={subject}
          onChange={(event) => setSubject(event.currentTarget.value)}
        />
        <Textarea
          label="Message"
          description={email ? `Sent to ${email} from your Google account.` : undefined}
          rows={MESSAGE_ROWS}
          required
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Button type="submit" disabled={!valid} loading={send.isPending}>
          {email ? 'Send message' : 'Email not available'}
        </Button>
      </Stack>
    </form>
  );
}
