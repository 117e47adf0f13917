import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { quoteIdentifier, quoteLiteral } from '../../../main/common/sql-quote.ts';

describe('SQL quoting', () => {
  it('doubles the quote it is written in, and nothing else', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(quoteLiteral('say "hi"')).toBe(`'say "hi"'`);
    expect(quoteIdentifier('say "hi"')).toBe('"say ""hi"""');
    expect(quoteIdentifier("it's")).toBe(`"it's"`);
  });

  it('reads back as the same text and name in DuckDB, whatever they hold', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const texts = ["it's", 'say "hi"', "''", '', 'a\nb', '\\', 'select 1; --'];
      for (const text of texts) {
        const reader = await connection.runAndReadAll(`SELECT ${quoteLiteral(text)} AS ${quoteIdentifier(text || 'empty')}`);
        expect(reader.getRows()[0]![0]).toBe(text);
        expect(reader.columnNames()[0]).toBe(text || 'empty');
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
