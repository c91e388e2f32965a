import { Button, Stack, Textarea } from '@mantine/core';
import { type TWarmIntroItem, type TWarmIntroModalData, ZWarmIntroItem } from '@warmpath/shared';
import { type FormEvent, useState } from 'react';
import { useSendWarmIntro, type WarmIntroRequest } from '../api.ts';
import { useRepeatConfirmation } from './RepeatConfirmation.tsx';

export type WarmIntroFormProps = {
  data: TWarmIntroModalData;
  request: WarmIntroRequest;
  /** Sending is refused (the person asked reached their weekly cap). */
  blocked: boolean;
  onSent: () => void;
};

const MESSAGE_ROWS = 6;

/** The two messages, filled from the templates and editable, and the button that sends them. */
export function WarmIntroForm({ data, request, blocked, onSent }: WarmIntroFormProps) {
  const [connectorMessage, setConnectorMessage] = useState(data.templates.connectorMessage);
  const [introTargetMessage, setIntroTargetMessage] = useState(data.templates.introTargetMessage);
  const send = useSendWarmIntro();
  const asked = data.contactOwner ?? data.connector;
  const item: TWarmIntroItem = {
    connectorId: request.connectorId,
    prospectContactId: data.target.id,
    connectorMessage,
    introTargetMessage,
    source: request.source,
  };
  // The contract's own rules (a request message is required; lengths).
  const valid = ZWarmIntroItem.safeParse(item).success;

  const repeat = useRepeatConfirmation<TWarmIntroItem>((body, { onError }) =>
    send.mutate(body, { onSuccess: onSent, onError }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (valid && !blocked) repeat.ask(item);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label={`Message to ${asked.firstName}`}
          description={`Sent to ${asked.fullName} from your Google account.`}
          rows={MESSAGE_ROWS}
          required
          value={connectorMessage}
          onChange={(event) => setConnectorMessage(event.currentTarget.value)}
        />
        <Textarea
          label={`Intro message for ${data.target.firstName}`}
          description={`For ${asked.firstName} to forward to ${data.target.fullName}.`}
          rows={MESSAGE_ROWS}
          value={introTargetMessage}
          onChange={(event) => setIntroTargetMessage(event.currentTarget.value)}
        />
        <Button type="submit" disabled={!valid || blocked} loading={send.isPending}>
          Send intro request
        </Button>
      </Stack>
      {repeat.dialog}
    </form>
  );
}
