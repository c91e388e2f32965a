import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv-write.ts';

describe('CSV cells', () => {
  it('defuses spreadsheet formulas at the start of a cell', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+33 1 23')).toBe("'+33 1 23");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tTab')).toBe("'\tTab");
    expect(csvCell('\rReturn')).toBe(`"'\rReturn"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('quotes commas, quotes and line breaks, and leaves the rest alone', () => {
    expect(csvCell('Acme, Inc.')).toBe('"Acme, Inc."');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
});
