import { describe, expect, it } from 'vitest';
import { escapeCsvCell, toCsv } from './archive-builder.ts';

describe('CSV cells', () => {
  it('defuses what a spreadsheet would run as a formula', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(escapeCsvCell(cell)).toBe(`'${cell}`);
    for (const cell of ['plain', '1-2', 'a=b', '']) expect(escapeCsvCell(cell)).toBe(cell);
  });

  it('writes a header of every column and quotes what needs quoting', () => {
    expect(
      toCsv([
        { name: '=HYPERLINK("http://x")', n: 1 },
        { name: 'a,b', extra: null },
      ]),
    ).toBe(`name,n,extra\n"'=HYPERLINK(""http://x"")",1,\n"a,b",,\n`);
  });
});
