import { describe, expect, it } from 'vitest';
import { Rejections } from './export-rows.ts';
import { parsePositionDate, parsePositionsCsv } from './positions-csv.ts';

describe('Positions.csv', () => {
  it("reads LinkedIn's month-year dates, a bare year, and nothing", () => {
    expect(
      ['Mar 2019', 'Sept 2020', 'dec 2001', '2015', '', 'March the 3rd', 'Foo 2019'].map(parsePositionDate),
    ).toEqual(['2019-03-01', '2020-09-01', '2001-12-01', '2015-01-01', null, undefined, undefined]);
  });

  it('keeps each position, and reports the lines it cannot use', async () => {
    const file = [
      'Company Name,Title,Description,Location,Started On,Finished On',
      'Globex,VP Sales,"Led sales, EMEA",Paris,Mar 2019,',
      'Initech,Account Executive,,,Jan 2015,Feb 2019',
      ',Nobody,,,Jan 2015,Feb 2019',
      'Hooli,Intern,,,Soon,',
      'Umbrella,Analyst,,,Jan 2015,Feb 2014',
    ].join('\r\n');
    const rejected = new Rejections();
    const positions = await parsePositionsCsv(file, rejected);
    expect(positions).toEqual([
      { company: 'Globex', title: 'VP Sales', startedOn: '2019-03-01', finishedOn: null, line: 2 },
      { company: 'Initech', title: 'Account Executive', startedOn: '2015-01-01', finishedOn: '2019-02-01', line: 3 },
    ]);
    expect(rejected.listed).toEqual([
      { line: 4, reason: 'The company name is empty' },
      { line: 5, reason: "The dates are not LinkedIn's 'Mar 2019'" },
      { line: 6, reason: 'The position finishes before it starts' },
    ]);
    expect(rejected.count).toBe(3);
    await expect(parsePositionsCsv('First Name,Last Name\nA,B', new Rejections())).rejects.toThrow(
      'not a LinkedIn Positions.csv',
    );
  });
});
