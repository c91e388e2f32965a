import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { CSV_TEMPLATES, CSV_UPLOAD, type TImportStatus } from '@warmpath/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveFile } from '../lib/browser.ts';
import { renderWithMantine } from '../testing/render.tsx';
import { CsvUploadPanel, type CsvUploadPanelProps, type CsvUploadState } from './CsvUploadPanel.tsx';

vi.mock('../lib/browser.ts', () => ({ saveFile: vi.fn(), leaveTo: vi.fn() }));

const csv = (name = 'clients.csv', text = 'First name\r\nAda\r\n') => new File([text], name, { type: 'text/csv' });

const completed: TImportStatus = {
  id: '6a4c1f2e-0b9d-4e8f-a7c6-5d4e3f2a1b0c',
  kind: 'clients',
  fileName: 'clients.csv',
  status: 'completed',
  bytesReceived: 1200,
  rowsProcessed: 12,
  mergeStep: null,
  added: 7,
  updated: 2,
  skipped: 1,
  rejected: 2,
  rejectedRowsUrl: '/imports/query/6a4c1f2e-0b9d-4e8f-a7c6-5d4e3f2a1b0c/rejected-rows',
  error: null,
  createdAt: '2026-01-05T10:00:00.000Z',
  finishedAt: '2026-01-05T10:00:02.000Z',
};

function renderPanel(overrides: Partial<CsvUploadPanelProps> = {}) {
  const props: CsvUploadPanelProps = {
    title: 'Import allies to map network from',
    template: CSV_TEMPLATES.clients,
    state: { stage: 'idle' },
    onSubmit: vi.fn(),
    onBack: vi.fn(),
    onDownloadRejected: vi.fn(),
    ...overrides,
  };
  const view = renderWithMantine(<CsvUploadPanel {...props} />);
  const rerender = (state: CsvUploadState) =>
    view.rerender(
      <MantineProvider env="test">
        <CsvUploadPanel {...props} state={state} />
      </MantineProvider>,
    );
  return { props, rerender };
}

/** jsdom's Blob has no text(). */
const readText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

const submitButton = () => screen.getByRole('button', { name: 'Submit' });
const fileInput = () => screen.getByLabelText<HTMLInputElement>('CSV file');
const dropZone = () => screen.getByRole('button', { name: /Upload a file or drag and drop/ });
const pick = (...files: File[]) => fireEvent.change(fileInput(), { target: { files } });

describe('CSV upload panel', () => {
  afterEach(() => {
    cleanup();
    vi.clearAllMocks();
  });

  it('shows the title, the template link, the drop zone and its caption, with Submit disabled', () => {
    renderPanel();
    expect(screen.getByRole('heading', { name: 'Import allies to map network from' })).toBeDefined();
    expect(dropZone().textContent).toContain('CSV file up to 1GB');
    expect(fileInput().accept).toBe('.csv,text/csv');
    expect(submitButton()).toHaveProperty('disabled', true);
  });

  it('downloads a template listing every column with an example row', async () => {
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Download the CSV template' }));
    const [file, name] = vi.mocked(saveFile).mock.calls[0] ?? [];
    expect(name).toBe('clients-and-allies-import-template.csv');
    if (!file) throw new Error('No file was saved');
    const lines = (await readText(file)).trim().split('\r\n');
    expect(lines[0]).toBe(CSV_TEMPLATES.clients.columns.join(','));
    expect(lines[1]).toContain('jane.doe@acme.com');
  });

  it('shows the chosen file as a chip, enables Submit, and disables it again once the chip is removed', () => {
    renderPanel();
    pick(csv());
    expect(screen.getByText('clients.csv')).toBeDefined();
    expect(submitButton()).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove clients.csv' }));
    expect(screen.queryByText('clients.csv')).toBeNull();
    expect(submitButton()).toHaveProperty('disabled', true);
  });

  it('refuses another type, an empty file, a file over 1GB and two files, with the codes and messages', () => {
    renderPanel();
    pick(csv('clients.xlsx'));
    let alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('File type must be text/csv,.csv');
    expect(alert.dataset.code).toBe('file-invalid-type');
    expect(submitButton()).toHaveProperty('disabled', true);

    pick(csv('empty.csv', ''));
    alert = screen.getByRole('alert');
    expect(alert.dataset.code).toBe('file-too-small');
    expect(alert.textContent).toBe('File is smaller than 1 byte');

    const huge = csv('huge.csv');
    Object.defineProperty(huge, 'size', { value: CSV_UPLOAD.maxBytes + 1 });
    pick(huge);
    alert = screen.getByRole('alert');
    expect(alert.dataset.code).toBe('file-too-large');
    expect(alert.textContent).toBe('File is larger than 1073741824 bytes');

    pick(csv('a.csv'), csv('b.csv'));
    alert = screen.getByRole('alert');
    expect(alert.dataset.code).toBe('too-many-files');
    expect(alert.textContent).toBe('Too many files');
    expect(submitButton()).toHaveProperty('disabled', true);

    pick(csv());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(submitButton()).toHaveProperty('disabled', false);
  });

  it('highlights while a file is dragged over, and takes a dropped file', () => {
    renderPanel();
    const zone = dropZone();
    fireEvent.dragEnter(zone, { dataTransfer: { files: [] } });
    expect(zone.textContent).toContain('Drop the files here ...');
    expect(zone.dataset.dragging).toBe('true');
    fireEvent.dragLeave(zone, { dataTransfer: { files: [] } });
    expect(zone.textContent).toContain('Upload a file or drag and drop');
    expect(zone.dataset.dragging).toBeUndefined();

    fireEvent.drop(zone, { dataTransfer: { files: [csv('dropped.csv')] } });
    expect(screen.getByText('dropped.csv')).toBeDefined();
    expect(screen.getByText('Upload a file or drag and drop')).toBeDefined();
  });

  it('submits the chosen file, and goes back on Back', () => {
    const { props } = renderPanel();
    const file = csv();
    pick(file);
    fireEvent.click(submitButton());
    expect(props.onSubmit).toHaveBeenCalledWith(file);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(props.onBack).toHaveBeenCalled();
  });

  it('shows the bytes sent, then the rows processed, then the counts with the rejected rows link', () => {
    const { props, rerender } = renderPanel();
    pick(csv());
    fireEvent.click(submitButton());

    rerender({ stage: 'uploading', sent: { loaded: 512, total: 2048 }, server: null });
    const progress = screen.getByRole('status', { name: 'Upload progress' });
    expect(progress.textContent).toContain('Sent 512 B of 2.0 KB (25%)');
    expect(submitButton()).toHaveProperty('disabled', true);

    rerender({
      stage: 'uploading',
      sent: { loaded: 2048, total: 2048 },
      server: { kind: 'clients', status: 'merging', rowsProcessed: 1234, mergeStep: 3 },
    });
    const merging = screen.getByRole('status', { name: 'Upload progress' });
    expect(merging.textContent).toContain('Merging into the list: 1,234 rows processed');
    expect(merging.textContent).toContain('Step 4 of 7: Adding and updating people');
    expect(screen.getByRole('progressbar', { name: 'Merge progress' }).getAttribute('aria-valuenow')).toBe('43');

    rerender({ stage: 'completed', result: completed });
    const counts = within(screen.getByRole('list', { name: 'Import counts' }));
    expect(counts.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Added: 7',
      'Updated: 2',
      'Skipped: 1',
      'Rejected: 2',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Download the rejected rows' }));
    expect(props.onDownloadRejected).toHaveBeenCalled();
    // The imported file is done with: Submit waits for a new one.
    expect(screen.queryByText('Remove clients.csv')).toBeNull();
    expect(submitButton()).toHaveProperty('disabled', true);
  });

  it('keeps the file after a failure, so the upload can be tried again', () => {
    const { props, rerender } = renderPanel();
    pick(csv());
    fireEvent.click(submitButton());
    rerender({ stage: 'failed', message: 'The file has no usable header' });
    expect(screen.getByRole('alert').textContent).toContain('The file has no usable header');
    fireEvent.click(submitButton());
    expect(props.onSubmit).toHaveBeenCalledTimes(2);
  });
});
