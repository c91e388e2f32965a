import { CSV_UPLOAD } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { csvFileError } from './csvFile.ts';

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
