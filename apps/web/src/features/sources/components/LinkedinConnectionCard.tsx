import { Alert, Anchor, Button, Card, FileInput, Group, List, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { LINKEDIN_UPLOAD, type TLinkedinImportResult, type TMe } from '@warmpath/shared';
import { type FormEvent, useId, useState } from 'react';
import { CSV_ACCEPT, csvFileError } from '../../../components/csvFile.ts';
import { formatCount } from '../../../lib/format.ts';
import { ConnectionIcon } from '../../users/components/ConnectionIcon.tsx';
import { useUploadLinkedinConnections, useUploadLinkedinPositions } from '../api.ts';

export type LinkedinConnectionCardProps = {
  user: Pick<TMe, 'isLinkedinConnected'>;
  /** Show the export steps and the upload at once (the sync step), rather than behind the card's button. */
  expandedByDefault?: boolean;
};

/** LinkedIn's page where a member asks for a copy of their data. */
const LINKEDIN_EXPORT_URL = 'https://www.linkedin.com/mypreferences/d/download-my-data';

/**
 * The LinkedIn connection. It reads Install extension or Installed as the spec says, but the
 * connections come from LinkedIn's official export of the member's data: the card explains how to
 * get it and uploads its Connections.csv.
 */
export function LinkedinConnectionCard({ user, expandedByDefault = false }: LinkedinConnectionCardProps) {
  const titleId = useId();
  const panelId = useId();
  const connected = user.isLinkedinConnected;
  const [expanded, setExpanded] = useState(expandedByDefault);
  const toggle = () => setExpanded((current) => !current);

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <ConnectionIcon provider="LinkedIn" connected={connected} />
            <Title order={3} size="h5" id={titleId}>
              LinkedIn
            </Title>
          </Group>
          {connected ? (
            <Button size="sm" disabled>
              Installed
            </Button>
          ) : (
            <Button size="sm" onClick={toggle} aria-expanded={expanded} aria-controls={panelId}>
              Install extension
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Your first-degree connections, from the copy of your data LinkedIn gives you.
        </Text>
        {connected ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={toggle}
            aria-expanded={expanded}
            aria-controls={panelId}
          >
            Import a newer export
          </Anchor>
        ) : null}
        {expanded ? (
          <Stack gap="md" id={panelId}>
            <LinkedinExportSteps />
            <LinkedinFileUpload
              fileLabel="Connections.csv file"
              noun="connection"
              maxBytes={LINKEDIN_UPLOAD.connectionsMaxBytes}
              useUpload={useUploadLinkedinConnections}
            />
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                Your work history (optional)
              </Text>
              <Text size="sm">
                In the same page, ask for the larger archive (or tick <b>Profile</b>): it holds <b>Positions.csv</b>,
                where you worked and when. Upload it so the people who worked there with you show as colleagues.
              </Text>
              <LinkedinFileUpload
                fileLabel="Positions.csv file"
                noun="position"
                maxBytes={LINKEDIN_UPLOAD.positionsMaxBytes}
                useUpload={useUploadLinkedinPositions}
                submitLabel="Upload history"
              />
            </Stack>
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
}

function LinkedinExportSteps() {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        How to get your connections from LinkedIn
      </Text>
      <List type="ordered" size="sm" spacing={4}>
        <List.Item>
          On LinkedIn, open <b>Me</b> &gt; <b>Settings &amp; Privacy</b> &gt; <b>Data privacy</b> &gt;{' '}
          <b>Get a copy of your data</b> (
          <Anchor href={LINKEDIN_EXPORT_URL} target="_blank" rel="noopener noreferrer">
            open that page
          </Anchor>
          ).
        </List.Item>
        <List.Item>
          Tick <b>Connections</b> only, then choose <b>Request archive</b>.
        </List.Item>
        <List.Item>LinkedIn e-mails you a download link, usually within minutes.</List.Item>
        <List.Item>Download the archive and unzip it.</List.Item>
        <List.Item>
          Upload the <b>Connections.csv</b> file it contains here.
        </List.Item>
      </List>
    </Stack>
  );
}

type LinkedinFileUploadProps = {
  fileLabel: string;
  /** What a row of the file is, for the result ('3 connections imported'). */
  noun: string;
  /** The route's size limit: a larger file is refused here rather than after its upload. */
  maxBytes: number;
  useUpload: typeof useUploadLinkedinConnections;
  submitLabel?: string;
};

function LinkedinFileUpload({ fileLabel, noun, maxBytes, useUpload, submitLabel = 'Upload' }: LinkedinFileUploadProps) {
  const upload = useUpload();
  const [file, setFile] = useState<File | null>(null);
  const fileError = file ? csvFileError(file, maxBytes) : null;

  const choose = (chosen: File | null) => {
    setFile(chosen);
    upload.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file || fileError) return;
    upload.mutate(file, { onSuccess: () => setFile(null) });
  };

  return (
    <Stack gap="sm">
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" wrap="nowrap">
          <FileInput
            label={fileLabel}
            placeholder="Choose the file"
            accept={CSV_ACCEPT}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
            value={file}
            onChange={choose}
            error={fileError}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button type="submit" disabled={!file || fileError !== null} loading={upload.isPending}>
            {submitLabel}
          </Button>
        </Group>
      </form>
      {upload.isError ? (
        <Alert color="red" variant="light" role="alert" title="The file was not imported">
          {upload.error.message}
        </Alert>
      ) : null}
      {upload.data ? <ImportResult result={upload.data} noun={noun} /> : null}
    </Stack>
  );
}

function ImportResult({ result, noun }: { result: TLinkedinImportResult; noun: string }) {
  // The server lists the first rejected lines and counts them all.
  const { imported, rejected: listed, rejectedCount } = result;
  return (
    <Alert
      color={rejectedCount === 0 ? 'green' : 'yellow'}
      variant="light"
      role="status"
      title={`${formatCount(imported)} ${imported === 1 ? noun : `${noun}s`} imported`}
    >
      {rejectedCount === 0 ? null : (
        <Stack gap={4}>
          <Text size="sm">
            {formatCount(rejectedCount)} {rejectedCount === 1 ? 'line was' : 'lines were'} not imported:
          </Text>
          <ScrollArea.Autosize mah={200} type="auto">
            <List size="sm" spacing={2} aria-label="Lines not imported">
              {listed.map((rejection) => (
                <List.Item key={rejection.line}>
                  Line {rejection.line}: {rejection.reason}
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
          {rejectedCount > listed.length ? (
            <Text size="sm" c="dimmed">
              and {formatCount(rejectedCount - listed.length)} more.
            </Text>
          ) : null}
        </Stack>
      )}
    </Alert>
  );
}
