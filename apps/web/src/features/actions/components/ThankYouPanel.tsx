import { Button, Stack, Text, Textarea } from '@mantine/core';
import { type TPastAction, type TSendThankYouBody, ZSendThankYouBody } from '@warmpath/shared';
import { type FormEvent, useState } from 'react';
import { useSendThankYou } from '../../intros/api.ts';
import { PersonCard } from '../../network/components/PersonCard.tsx';
import { ConnectGoogleAlert } from '../../sources/components/ConnectGoogleAlert.tsx';
import { pastConnector, thankYouPrefill } from '../actionsDisplay.ts';

export type ThankYouPanelProps = {
  action: TPastAction;
  userFullName: string;
  isGoogleConnected: boolean;
  onSent: () => void;
};

const MESSAGE_ROWS = 8;

/** 'Thank-you note': whom to thank, for whom, and the editable note e-mailed to the connector. */
export function ThankYouPanel({ action, userFullName, isGoogleConnected, onSent }: ThankYouPanelProps) {
  const connector = pastConnector(action);
  if (!connector) {
    return (
      <Text size="sm" role="alert">
        This action names nobody to thank.
      </Text>
    );
  }
  return (
    <Stack gap="md">
      <PersonCard heading="Thank" person={connector} />
      <PersonCard
        heading="For the intro to"
        person={{
          fullName: action.contact.fullName,
          avatar: action.contact.avatar,
          jobTitle: action.contact.jobTitle,
          companyName: action.company?.companyName ?? null,
        }}
      />
      {isGoogleConnected ? (
        <ThankYouForm action={action} connectorName={connector.fullName} userFullName={userFullName} onSent={onSent} />
      ) : (
        <ConnectGoogleAlert />
      )}
    </Stack>
  );
}

type ThankYouFormProps = { action: TPastAction; connectorName: string; userFullName: string; onSent: () => void };

function ThankYouForm({ action, connectorName, userFullName, onSent }: ThankYouFormProps) {
  const [message, setMessage] = useState(() => thankYouPrefill(action, userFullName));
  const send = useSendThankYou();
  const body: TSendThankYouBody = { actionId: action.actionId, message };
  const valid = ZSendThankYouBody.safeParse(body).success;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (valid) send.mutate(body, { onSuccess: onSent });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label="Note"
          description={`Sent to ${connectorName} from your Google account.`}
          rows={MESSAGE_ROWS}
          required
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Button type="submit" disabled={!valid} loading={send.isPending}>
          Send thank-you
        </Button>
      </Stack>
    </form>
  );
}
