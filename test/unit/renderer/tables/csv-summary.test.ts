import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CSV_PARSE_OPTIONS } from '../../../../renderer/src/tables/csv-options.ts';
import { CsvSummary } from '../../../../renderer/src/tables/csv-summary.ts';

// What the CSV worker reports of a file, read with the worker's own options.

function summarize(text: string, previewRows = 2) {
  const summary = new CsvSummary(previewRows);
  for (const row of Papa.parse<string[]>(text, CSV_PARSE_OPTIONS).data) summary.add(row);
  return summary.result();
}

describe('the summary of a CSV file', () => {
  it('counts the rows after the header, keeps the first ones, and types the columns', () => {
    expect(summarize('day,n,label\r\n2024-01-01,1,"a, ""b""\nc"\r\n\r\n2024-01-02,2,x\r\n2024-01-03,3,y\r\n')).toEqual({
      header: ['day', 'n', 'label'],
      preview: [
        ['2024-01-01', '1', 'a, "b"\nc'],
        ['2024-01-02', '2', 'x'],
      ],
      rows: 3,
      types: ['date', 'bigint', 'varchar'],
      ragged: [],
      raggedCount: 0,
    });
  });

  it('numbers the rows whose number of fields is not the header’s', () => {
    const parsed = summarize('a,b,c\n1,2,3\n1,2\n1,2,3\n1,2,3,4\n');
    expect(parsed.ragged).toEqual([
      { row: 2, fields: 2 },
      { row: 4, fields: 4 },
    ]);
    expect(parsed.raggedCount).toBe(2);
  });

  it('keeps only the first ragged rows of a file full of them, and counts them all', () => {
    const lines = ['a,b', ...Array.from({ length: 50 }, () => '1')];
    const parsed = summarize(lines.join('\n'));
    expect(parsed.ragged).toHaveLength(20);
    expect(parsed.raggedCount).toBe(50);
  });

  it('has no header and no rows for an empty file', () => {
    expect(summarize('')).toMatchObject({ header: [], rows: 0, preview: [] });
  });
});
