import { Alert, Anchor, Button, Group, List, Progress, Stack, Text, Title } from '@mantine/core';
import { IMPORT_MERGE_STEPS, type ImportStatus, type TImportStatus } from '@warmpath/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { UploadProgress } from '../lib/api.ts';
import { saveFile } from '../lib/browser.ts';
import { formatCount } from '../lib/format.ts';
import { CsvDropzone } from './CsvDropzone.tsx';
import { type FileRejection, formatBytes } from './csvFile.ts';
import { type CsvTemplate, csvTemplateFile } from './csvTemplate.ts';

/** Where an upload stands: the bytes sent, then the server's rows processed and merge steps, then its counts. */
export type CsvUploadState =
  | { stage: 'idle' }
  | {
      stage: 'uploading';
      sent: UploadProgress | null;
      server: Pick<TImportStatus, 'kind' | 'status' | 'rowsProcessed' | 'mergeStep'> | null;
    }
  | { stage: 'completed'; result: TImportStatus }
  | { stage: 'failed'; message: string };

export type CsvUploadPanelProps = {
  title: string;
  template: CsvTemplate;
  state: CsvUploadState;
  onSubmit: (file: File) => void;
  onBack: () => void;
  /** Downloads the completed import's rejected rows (line and reason). */
  onDownloadRejected: () => void;
  /** What follows a completed import here (the onboarding's Continue). */
  completedAction?: ReactNode;
};

/**
 * Spec section 2's CSV upload panel: title, template download, drop zone, the chosen file as a chip,
 * Submit (disabled until a file is chosen) and Back; then the upload's progress and result.
 */
export function CsvUploadPanel({
  title,
  template,
  state,
  onSubmit,
  onBack,
  onDownloadRejected,
  completedAction,
}: CsvUploadPanelProps) {
  const [file, setFile] = useState<File | null>(null);
  const [submitted, setSubmitted] = useState<File | null>(null);
  const [rejection, setRejection] = useState<FileRejection | null>(null);
  const uploading = state.stage === 'uploading';
  // Once imported, the file is done with: a new choice starts the next import.
  const chosen = state.stage === 'completed' && file === submitted ? null : file;

  const change = (next: File | null) => {
    setFile(next);
    setRejection(null);
  };

  const reject = (refused: FileRejection) => {
    setFile(null);
    setRejection(refused);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!chosen || uploading) return;
    setSubmitted(chosen);
    onSubmit(chosen);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3">
            {title}
          </Title>
          <Anchor component="button" type="button" size="sm" onClick={() => downloadTemplate(template)}>
            Download the CSV template
          </Anchor>
        </Stack>
        <CsvDropzone file={chosen} onFileChange={change} onReject={reject} disabled={uploading} />
        {rejection ? (
          <Text size="sm" c="red.8" role="alert" data-code={rejection.code}>
            {rejection.message}
          </Text>
        ) : null}
        <UploadProgressView state={state} onDownloadRejected={onDownloadRejected} />
        {state.stage === 'completed' ? completedAction : null}
        <Group justify="space-between">
          <Anchor component="button" type="button" onClick={onBack}>
            Back
          </Anchor>
          <Button type="submit" disabled={!chosen} loading={uploading}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function downloadTemplate(template: CsvTemplate) {
  saveFile(csvTemplateFile(template), template.fileName);
}

const SERVER_STAGE: Record<ImportStatus, string> = {
  receiving: 'Reading the rows',
  merging: 'Merging into the list',
  completed: 'Done',
  failed: 'Failed',
};

function UploadProgressView({ state, onDownloadRejected }: { state: CsvUploadState; onDownloadRejected: () => void }) {
  if (state.stage === 'idle') return null;
  if (state.stage === 'failed') {
    return (
      <Alert color="red" variant="light" role="alert" title="The file was not imported">
        {state.message}
      </Alert>
    );
  }
  if (state.stage === 'completed')
    return <ImportCounts result={state.result} onDownloadRejected={onDownloadRejected} />;

  const { sent, server } = state;
  const percent = sent && sent.total > 0 ? Math.round((100 * sent.loaded) / sent.total) : 0;
  return (
    <Stack gap={6} role="status" aria-label="Upload progress">
      <Progress value={percent} aria-label="File sent" animated={server?.status === 'merging'} />
      <Text size="sm">
        {sent ? `Sent ${formatBytes(sent.loaded)} of ${formatBytes(sent.total)} (${percent}%)` : 'Starting the upload'}
      </Text>
      {server ? (
        <Text size="sm">
          {SERVER_STAGE[server.status]}: {formatCount(server.rowsProcessed)}{' '}
          {server.rowsProcessed === 1 ? 'row' : 'rows'} processed
        </Text>
      ) : null}
      {server?.status === 'merging' && server.mergeStep !== null ? <MergeSteps server={server} /> : null}
    </Stack>
  );
}

/** The merge of a large file takes minutes: which of its steps is under way, as a bar and in words. */
function MergeSteps({ server }: { server: Pick<TImportStatus, 'kind' | 'mergeStep'> }) {
  const steps: readonly string[] = IMPORT_MERGE_STEPS[server.kind];
  const index = Math.min(server.mergeStep ?? 0, steps.length - 1);
  return (
    <>
      <Progress value={Math.round((100 * index) / steps.length)} aria-label="Merge progress" />
      <Text size="sm">
        Step {index + 1} of {steps.length}: {steps[index]}
      </Text>
    </>
  );
}

function ImportCounts({ result, onDownloadRejected }: { result: TImportStatus; onDownloadRejected: () => void }) {
  const counts = [
    ['Added', result.added],
    ['Updated', result.updated],
    ['Skipped', result.skipped],
    ['Rejected', result.rejected],
  ] as const;
  return (
    <Alert
      color={result.rejected === 0 ? 'green' : 'yellow'}
      variant="light"
      role="status"
      title={`${result.fileName} imported: ${formatCount(result.rowsProcessed)} ${result.rowsProcessed === 1 ? 'row' : 'rows'}`}
    >
      <Stack gap={6}>
        <List size="sm" spacing={2} aria-label="Import counts">
          {counts.map(([label, count]) => (
            <List.Item key={label}>
              {label}: {formatCount(count)}
            </List.Item>
          ))}
        </List>
        {result.rejected > 0 && result.rejectedRowsUrl ? (
          <Anchor component="button" type="button" size="sm" onClick={onDownloadRejected}>
            Download the rejected rows
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}
