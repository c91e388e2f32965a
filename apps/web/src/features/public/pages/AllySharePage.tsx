import { Alert, Button, Container, FileInput, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { allyMatchKey, type TAllyMatch, type TAllyMatches, type TAllyShare } from '@warmpath/shared';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import {
  useAllyGoogleMatches,
  useAllyShare,
  useConfirmAllyConnections,
  useMatchAllyConnections,
  useStartAllyGoogle,
  useWithdrawAllyConnections,
} from '../api.ts';

/**
 * The page a client ally opens from their share link, without an account: who asks and why, their
 * LinkedIn Connections.csv or their Google account (read once) matched against the team's accounts
 * (nothing kept yet), the matches to prune and confirm, and a withdrawal of everything later through
 * the same link.
 */
export function AllySharePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const share = useAllyShare(token);
  return (
    <Container size="md" py="xl">
      {share.isPending ? (
        <Group justify="center" py="xl">
          <Loader role="status" aria-label="Loading the share page" />
        </Group>
      ) : share.isError ? (
        <Alert color="red" title="This link cannot be used" role="alert">
          {share.error.message}
        </Alert>
      ) : (
        <ShareContent token={token} share={share.data} />
      )}
    </Container>
  );
}

function ShareContent({ token, share }: { token: string; share: TAllyShare }) {
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Share connections with {share.workspaceName}
      </Title>
      <Text>
        {share.senderName} at {share.workspaceName} asks you, {share.allyName}, which of your LinkedIn connections work
        at the companies they are trying to reach, so that they can ask you for a warm introduction.
      </Text>
      <Stack gap={4} component="section" aria-label="What will be shared">
        <Title order={2} size="h4">
          What will be shared, and why
        </Title>
        <List size="sm">
          <List.Item>
            Only your connections at {share.workspaceName}'s target companies: name, profile or e-mail address, company
            and position.
          </List.Item>
          <List.Item>The rest of your file is discarded right after matching and never stored.</List.Item>
          <List.Item>You see the matches first, can remove anyone, and nothing is shared until you confirm.</List.Item>
          <List.Item>You can withdraw everything later with this same link.</List.Item>
        </List>
      </Stack>
      {share.status === 'confirmed' ? <Shared token={token} share={share} /> : <Upload token={token} share={share} />}
    </Stack>
  );
}

const GOOGLE_OUTCOMES: Record<string, string> = {
  denied: 'You did not allow access to your Google account: nothing was read.',
  'other-browser': 'Google was approved in another browser, so nothing was read. Connect again from this page.',
  failed:
    'Your Google account could not be read (was every permission allowed?). Nothing was kept: connect again, or upload your file.',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Upload({ token, share }: { token: string; share: TAllyShare }) {
  const [params, setParams] = useSearchParams();
  // The Google callback's answer, taken from the address once: a reload must not ask for it again.
  const [googleOutcome, setGoogleOutcome] = useState(() => params.get('fromGoogle'));
  useEffect(() => {
    if (!params.has('fromGoogle')) return;
    const rest = new URLSearchParams(params);
    rest.delete('fromGoogle');
    setParams(rest, { replace: true });
  }, [params, setParams]);
  const googleRef = googleOutcome && UUID.test(googleOutcome) ? googleOutcome : null;
  const googleMatches = useAllyGoogleMatches(token, googleRef);
  const [file, setFile] = useState<File | null>(null);
  const match = useMatchAllyConnections(token);
  const result = match.data ?? (googleRef ? googleMatches.data : undefined);
  return (
    <Stack>
      {share.status === 'withdrawn' ? (
        <Alert color="gray">You withdrew what you shared. You can share again below.</Alert>
      ) : null}
      {googleOutcome && GOOGLE_OUTCOMES[googleOutcome] ? (
        <Alert color="yellow" role="alert">
          {GOOGLE_OUTCOMES[googleOutcome]}
        </Alert>
      ) : null}
      {result ? (
        <Matches
          token={token}
          result={result}
          restartLabel={match.data ? 'Choose another file' : 'Start again'}
          onRestart={() => {
            match.reset();
            setGoogleOutcome(null);
          }}
        />
      ) : googleRef && googleMatches.isPending ? (
        <Group justify="center" py="md">
          <Loader role="status" aria-label="Loading your matches" />
        </Group>
      ) : (
        <>
          {googleRef && googleMatches.isError ? (
            <Alert color="red" role="alert">
              {googleMatches.error.message}
            </Alert>
          ) : null}
          <FileInput
            label="Your LinkedIn Connections.csv"
            description="LinkedIn › Settings › Data privacy › Get a copy of your data › Connections."
            accept=".csv,text/csv"
            value={file}
            onChange={setFile}
            clearable
          />
          {match.isError ? (
            <Alert color="red" role="alert">
              {match.error.message}
            </Alert>
          ) : null}
          <Group>
            <Button disabled={!file} loading={match.isPending} onClick={() => file && match.mutate(file)}>
              Find matches
            </Button>
          </Group>
          <ConnectGoogle token={token} share={share} />
        </>
      )}
    </Stack>
  );
}

/** The other way in: the ally's Google account, read once with read-only access. */
function ConnectGoogle({ token, share }: { token: string; share: TAllyShare }) {
  const start = useStartAllyGoogle(token);
  return (
    <Stack gap={4} component="section" aria-label="Or use your Google account">
      <Title order={2} size="h4">
        Or use your Google account
      </Title>
      <List size="sm">
        <List.Item>
          We read, once: your Google contacts, who you exchanged e-mails with (the senders and recipients only, never
          the content), and who you met in your calendar.
        </List.Item>
        <List.Item>
          Only the people at {share.workspaceName}'s target companies are kept, for you to review. Nothing else is kept:
          not your e-mails, not your other contacts, not the access to your account, which is used once and dropped.
        </List.Item>
      </List>
      {start.isError ? (
        <Alert color="red" role="alert">
          {start.error.message}
        </Alert>
      ) : null}
      <Group>
        <Button variant="default" loading={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
          Connect Google (read-only)
        </Button>
      </Group>
    </Stack>
  );
}

function Matches({
  token,
  result,
  restartLabel,
  onRestart,
}: {
  token: string;
  result: TAllyMatches;
  restartLabel: string;
  onRestart: () => void;
}) {
  const [kept, setKept] = useState<TAllyMatch[]>(result.matches);
  const confirm = useConfirmAllyConnections(token);
  return (
    <Stack component="section" aria-label="Your matches">
      <Title order={2} size="h4">
        {kept.length} of your {result.scanned} connections match
      </Title>
      {kept.length === 0 ? (
        <Text c="dimmed">None of your connections works at these companies: nothing will be shared.</Text>
      ) : (
        <Table aria-label="Matches">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th>Position</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {kept.map((match) => (
              <Table.Tr key={allyMatchKey(match)}>
                <Table.Td>{match.fullName}</Table.Td>
                <Table.Td>{match.company ?? ''}</Table.Td>
                <Table.Td>{match.position ?? ''}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${match.fullName}`}
                    onClick={() => setKept(kept.filter((other) => allyMatchKey(other) !== allyMatchKey(match)))}
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {confirm.isError ? (
        <Alert color="red" role="alert">
          {confirm.error.message}
        </Alert>
      ) : null}
      <Group>
        <Button
          disabled={kept.length === 0}
          loading={confirm.isPending}
          onClick={() => confirm.mutate({ matchToken: result.matchToken, keep: kept.map(allyMatchKey) })}
        >
          Share {kept.length} {kept.length === 1 ? 'connection' : 'connections'}
        </Button>
        <Button variant="default" onClick={onRestart}>
          {restartLabel}
        </Button>
      </Group>
    </Stack>
  );
}

function Shared({ token, share }: { token: string; share: TAllyShare }) {
  const withdraw = useWithdrawAllyConnections(token);
  const [confirming, setConfirming] = useState(false);
  return (
    <Stack component="section" aria-label="What you shared">
      <Alert color="green" title="Thank you">
        You shared {share.shared.length} {share.shared.length === 1 ? 'connection' : 'connections'} with{' '}
        {share.workspaceName}.
      </Alert>
      <List size="sm">
        {share.shared.map((match) => (
          <List.Item key={allyMatchKey(match)}>
            {match.fullName}
            {match.company ? ` (${match.company})` : ''}
          </List.Item>
        ))}
      </List>
      <Group>
        <Button color="red" variant="light" onClick={() => setConfirming(true)}>
          Withdraw everything
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        message={`Withdraw everything you shared with ${share.workspaceName}?`}
        confirming={withdraw.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => withdraw.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </Stack>
  );
}
