import { describe, expect, it } from 'vitest';
import { csvField, csvText } from './csvTemplate.ts';

describe('csvText', () => {
  it('writes a header and rows with CRLF line ends', () => {
    expect(csvText(['First name', 'Email'], [['Ada', 'ada@example.com']])).toBe(
      'First name,Email\r\nAda,ada@example.com\r\n',
    );
  });

  it('quotes a field holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('Engines, Ltd')).toBe('"Engines, Ltd"');
    expect(csvField('The "Analytical" one')).toBe('"The ""Analytical"" one"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('plain')).toBe('plain');
  });
});
