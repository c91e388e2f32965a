import { CSV_UPLOAD } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { chooseCsvFile, csvFileError, csvFileRejection, formatBytes } from './csvFile.ts';

describe('csvFileError', () => {
  it('accepts a .csv file whatever its case', () => {
    expect(csvFileError({ name: 'Connections.csv', size: 10 })).toBeNull();
    expect(csvFileError({ name: 'EXPORT.CSV', size: 10 })).toBeNull();
  });

  it('refuses another type and a file over 1GB in the generic words', () => {
    expect(csvFileError({ name: 'Connections.xlsx', size: 10 })).toBe('File type must be text/csv,.csv');
    expect(csvFileError({ name: 'Connections.csv', size: CSV_UPLOAD.maxBytes + 1 })).toBe(
      'File is larger than 1073741824 bytes',
    );
  });
});

describe('csvFileRejection', () => {
  it('names each refusal by its code', () => {
    expect(csvFileRejection({ name: 'a.txt', size: 10 })?.code).toBe('file-invalid-type');
    expect(csvFileRejection({ name: 'a.csv', size: CSV_UPLOAD.maxBytes + 1 })?.code).toBe('file-too-large');
    expect(csvFileRejection({ name: 'a.csv', size: 0 })).toEqual({
      code: 'file-too-small',
      message: 'File is smaller than 1 byte',
    });
  });

  it('accepts a file of exactly 1GB', () => {
    expect(csvFileRejection({ name: 'a.csv', size: CSV_UPLOAD.maxBytes })).toBeNull();
  });
});

describe('chooseCsvFile', () => {
  it('takes one good file, refuses two, and ignores an empty choice', () => {
    const good = { name: 'clients.csv', size: 5 };
    expect(chooseCsvFile([good])).toEqual({ file: good, rejection: null });
    expect(chooseCsvFile([good, good])).toEqual({
      file: null,
      rejection: { code: 'too-many-files', message: 'Too many files' },
    });
    expect(chooseCsvFile([])).toBeNull();
  });
});

describe('formatBytes', () => {
  it('reads bytes, kilobytes, megabytes and gigabytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MB');
    expect(formatBytes(CSV_UPLOAD.maxBytes)).toBe('1.0 GB');
  });
});
