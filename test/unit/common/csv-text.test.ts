import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { csvField, quotedCsvField, scanRecord, unquotedCsvField } from '../../../main/common/csv-text.ts';
import { quoteLiteral } from '../../../main/common/sql-quote.ts';
import { splitHeader } from '../../../main/core/service-client/results-csv.ts';

const awkward = ['plain', '', 'a,b', 'say "hi"', 'two\nlines', 'cr\r\nlf', ' pad ', 'tab\there'];

function fields(text: string, at = 0): { texts: string[]; next: number } {
  const texts: string[] = [];
  const next = scanRecord(text, at, (start, end) => texts.push(unquotedCsvField(text.slice(start, end))));
  return { texts, next };
}

describe('CSV text', () => {
  it('quotes a field only when it holds the separator, a quote or a line break', () => {
    expect(awkward.map((t) => csvField(t))).toEqual([
      'plain',
      '',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '"cr\r\nlf"',
      ' pad ',
      'tab\there',
    ]);
    expect(csvField('tab\there', '\t')).toBe('"tab\there"');
    expect(csvField('a,b', '\t')).toBe('a,b');
    expect(quotedCsvField('plain')).toBe('"plain"');
  });

  it('scans back the fields it wrote, record by record', () => {
    const text = `${awkward.map((t) => csvField(t)).join(',')}\r\nx,"y"\n`;
    const first = fields(text);
    expect(first.texts).toEqual(awkward);
    const second = fields(text, first.next);
    expect(second.texts).toEqual(['x', 'y']);
    expect(second.next).toBe(text.length);
  });

  it('splits a page after its header row, at a line break outside quotes', () => {
    expect(splitHeader('id,"a\nb"\r\n1,2\n')).toEqual({ header: 'id,"a\nb"', rows: '1,2\n' });
    expect(splitHeader('id,name\n')).toEqual({ header: 'id,name', rows: '' });
    expect(splitHeader('id,name\r')).toEqual({ header: 'id,name', rows: '' });
    expect(splitHeader('id,name')).toEqual({ header: 'id,name', rows: '' });
    expect(splitHeader('')).toEqual({ header: '', rows: '' });
  });

  it('writes what DuckDB reads back as the same texts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csv-text-'));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const file = join(dir, 'rows.csv');
      writeFileSync(file, `${awkward.map((_, i) => `c${i}`).join(',')}\n${awkward.map((t) => csvField(t)).join(',')}\n`);
      const reader = await connection.runAndReadAll(
        `SELECT * FROM read_csv(${quoteLiteral(file)}, header = true, all_varchar = true, strict_mode = true)`,
      );
      // an empty unquoted field is a null in DuckDB's reading
      expect(reader.getRows()[0]).toEqual(awkward.map((t) => (t === '' ? null : t)));
    } finally {
      connection.closeSync();
      instance.closeSync();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
