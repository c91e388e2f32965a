import type { ReactNode } from 'react';
import { CsvUploadPanel } from '../../../components/CsvUploadPanel.tsx';
import { type CsvImportTarget, useCsvImport } from '../api.ts';

export type CsvImportProps = {
  title: string;
  target: CsvImportTarget;
  onBack: () => void;
  /** What follows a completed import (the onboarding's Continue). */
  completedAction?: ReactNode;
};

/** The CSV upload panel wired to one import: its template, its upload, its progress and its toasts. */
export function CsvImport({ title, target, onBack, completedAction }: CsvImportProps) {
  const csvImport = useCsvImport(target);
  return (
    <CsvUploadPanel
      title={title}
      template={csvImport.template}
      state={csvImport.state}
      onSubmit={csvImport.start}
      onBack={onBack}
      onDownloadRejected={csvImport.downloadRejected}
      completedAction={completedAction}
    />
  );
}
