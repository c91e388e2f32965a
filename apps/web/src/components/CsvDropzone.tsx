import { Box, Pill, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type ChangeEvent, type DragEvent, useId, useRef, useState } from 'react';
import { CSV_ACCEPT, chooseCsvFile, type FileRejection } from './csvFile.ts';

export type CsvDropzoneProps = {
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** A choice refused (wrong type, too large, too small, several files), with the spec's code and words. */
  onReject: (rejection: FileRejection) => void;
  disabled?: boolean;
};

/**
 * Spec section 2's drop zone: click to pick or drop one CSV file; highlighted while a file is dragged
 * over it. The chosen file shows as a chip with a remove button.
 */
export function CsvDropzone({ file, onFileChange, onReject, disabled = false }: CsvDropzoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  const choose = (files: readonly File[]) => {
    const choice = chooseCsvFile(files);
    if (!choice) return;
    if (choice.rejection) onReject(choice.rejection);
    else onFileChange(choice.file);
  };

  const dragOver = (event: DragEvent<HTMLElement>) => {
    // Without this the browser opens the dropped file instead of handing it to us.
    event.preventDefault();
    if (!disabled) setDragging(true);
  };

  const dragLeave = (event: DragEvent<HTMLElement>) => {
    // Moving over the zone's own text fires a leave too: only leaving the zone counts.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setDragging(false);
  };

  const drop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) choose(Array.from(event.dataTransfer.files));
  };

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    choose(Array.from(event.currentTarget.files ?? []));
    // The same file picked again after a removal must still count as a change.
    event.currentTarget.value = '';
  };

  return (
    <Stack gap="xs">
      <UnstyledButton
        onClick={() => inputRef.current?.click()}
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={dragLeave}
        onDrop={drop}
        disabled={disabled}
        data-dragging={dragging || undefined}
        aria-describedby={`${inputId}-caption`}
        style={{
          display: 'block',
          width: '100%',
          padding: 'var(--mantine-spacing-xl)',
          borderRadius: 'var(--mantine-radius-md)',
          border: `2px dashed ${dragging ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-gray-4)'}`,
          background: dragging ? 'var(--mantine-primary-color-light)' : undefined,
          textAlign: 'center',
          opacity: disabled ? 0.6 : 1,
        }}
      >
        <Text fw={600}>{dragging ? 'Drop the files here ...' : 'Upload a file or drag and drop'}</Text>
        <Text size="sm" c="dimmed" id={`${inputId}-caption`}>
          CSV file up to 1GB
        </Text>
      </UnstyledButton>
      <VisuallyHidden>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={CSV_ACCEPT}
          aria-label="CSV file"
          tabIndex={-1}
          disabled={disabled}
          onChange={picked}
        />
      </VisuallyHidden>
      {file ? (
        <Box>
          <Pill
            size="lg"
            withRemoveButton={!disabled}
            onRemove={() => onFileChange(null)}
            removeButtonProps={{ 'aria-label': `Remove ${file.name}`, 'aria-hidden': false, tabIndex: 0 }}
          >
            {file.name}
          </Pill>
        </Box>
      ) : null}
    </Stack>
  );
}
