import { Button, Stack, Text, Textarea } from '@mantine/core';
import {
  firstNameOf,
  type TRecommendedAction,
  type TSendAskIntroActionBody,
  ZSendAskIntroActionBody,
} from '@warmpath/shared';
import { type FormEvent, useState } from 'react';
import { useSendAskIntro } from '../../intros/api.ts';
import { useRepeatConfirmation } from '../../intros/components/RepeatConfirmation.tsx';
import { PersonCard } from '../../network/components/PersonCard.tsx';
import { ConnectGoogleAlert } from '../../sources/components/ConnectGoogleAlert.tsx';
import { actionTarget, askIntroPrefill, type IntroConnector, introConnector } from '../actionsDisplay.ts';
import { ActionSignals } from './ActionSignals.tsx';

export type AskIntroPanelProps = {
  action: TRecommendedAction;
  userId: string;
  userFullName: string;
  isGoogleConnected: boolean;
  onSent: () => void;
};

/** Tall enough for the request and the note for the target below it. */
const MESSAGE_ROWS = 16;

/** 'Ask intro': whom to ask, whom for, the signals, and the editable context sent to the connector. */
export function AskIntroPanel({ action, userId, userFullName, isGoogleConnected, onSent }: AskIntroPanelProps) {
  const connector = introConnector(action, userId);
  const { person, company } = actionTarget(action);
  if (!connector) {
    return (
      <Text size="sm" role="alert">
        This recommendation names nobody to ask for the intro.
      </Text>
    );
  }
  const asked = connector.owner ? { ...connector.owner, jobTitle: null, companyName: null } : connector.ally;
  return (
    <Stack gap="md">
      <PersonCard heading="Ask" person={asked} />
      {connector.owner ? (
        <PersonCard heading={`Who knows ${firstNameOf(person.fullName)}`} person={connector.ally} />
      ) : null}
      <PersonCard
        heading="Intro to"
        person={{
          fullName: person.fullName,
          avatar: person.avatar,
          jobTitle: person.jobTitle,
          companyName: company?.companyName ?? null,
        }}
      />
      <ActionSignals signals={action.signals} />
      {isGoogleConnected ? (
        <AskIntroForm action={action} connector={connector} userFullName={userFullName} onSent={onSent} />
      ) : (
        <ConnectGoogleAlert />
      )}
    </Stack>
  );
}

type AskIntroFormProps = {
  action: TRecommendedAction;
  connector: IntroConnector;
  userFullName: string;
  onSent: () => void;
};

function AskIntroForm({ action, connector, userFullName, onSent }: AskIntroFormProps) {
  const [message, setMessage] = useState(() => askIntroPrefill(action, connector, userFullName));
  const send = useSendAskIntro();
  const body: TSendAskIntroActionBody = {
    actionId: action.actionId,
    connectorId: connector.connectorId,
    prospectContactId: actionTarget(action).person.id,
    message,
    source: action.source ?? 'connector',
  };
  // The contract's own rules: a message is required, within its length.
  const valid = ZSendAskIntroActionBody.safeParse(body).success;

  const repeat = useRepeatConfirmation<TSendAskIntroActionBody>((request, { onError }) =>
    send.mutate(request, { onSuccess: onSent, onError }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (valid) repeat.ask(body);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label="Context"
          description={`Sent to ${connector.owner?.fullName ?? connector.ally.fullName} from your Google account.`}
          rows={MESSAGE_ROWS}
          required
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Button type="submit" disabled={!valid} loading={send.isPending}>
          Send intro request
        </Button>
      </Stack>
      {repeat.dialog}
    </form>
  );
}
