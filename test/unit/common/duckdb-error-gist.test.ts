import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbErrorGist } from '../../../main/common/duckdb-errors.ts';

// The messages come from a real DuckDB reading real files, so an upgrade that rewords them fails here.

let instance: DuckDBInstance;
let connection: DuckDBConnection;
let dir: string;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  dir = mkdtempSync(join(tmpdir(), 'querydesk-gist-'));
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** DuckDB's message for reading `text` as a file by `reader`, the file's path written `<file>`. */
async function readingError(text: string, reader: (path: string) => string): Promise<string> {
  const path = join(dir, 'data');
  writeFileSync(path, text);
  try {
    await connection.run(`SELECT * FROM ${reader(`'${path}'`)}`);
  } catch (error) {
    return (error as Error).message.replaceAll(path, '<file>');
  }
  throw new Error('the file was read');
}

// past the rows DuckDB samples to choose a column's type
const manyRows = Array.from({ length: 30_000 }, (_, i) => `${i},${i}\n`).join('');

describe("the gist of DuckDB's error", () => {
  it("keeps a CSV error's line, the line and the column, on one line, and none of DuckDB's advice", async () => {
    const message = await readingError(`a,b\n${manyRows}x,1\n`, (path) => `read_csv(${path}, header = true)`);
    expect(message).toMatch(/Possible solutions:[\s\S]*sample_size/);
    expect(duckdbErrorGist(message)).toBe(
      `Conversion Error: CSV Error on Line: 30002; Original Line: x,1; Error when converting column "a". Could not convert string "x" to 'BIGINT'`,
    );
    const wide = await readingError(`a,b\n${manyRows}1,2,3\n`, (path) => `read_csv(${path}, header = true)`);
    expect(duckdbErrorGist(wide)).toBe(
      'Invalid Input Error: CSV Error on Line: 30002; Original Line: 1,2,3; Expected Number of Columns: 2 Found: 3',
    );
  });

  it('leaves out the statement DuckDB ran', async () => {
    const message = await readingError('{"a":1}\n{"a":\n', (path) => `read_json(${path}, format = 'newline_delimited')`);
    expect(message).toMatch(/LINE 1: SELECT/);
    expect(duckdbErrorGist(message)).toBe(
      'Invalid Input Error: Malformed JSON in file "<file>", at byte 7 in line 3: unexpected end of data.',
    );
  });

  it('cuts a long line of data, and says so', async () => {
    const long = 'y'.repeat(5000);
    const message = await readingError(`a,b\n${manyRows}${long},1\n`, (path) => `read_csv(${path}, header = true)`);
    const gist = duckdbErrorGist(message);
    expect(gist).toContain(`Original Line: ${'y'.repeat(185)}…;`);
    expect(gist.length).toBeLessThan(500);
  });

  it('keeps a one-line message as it is', () => {
    expect(duckdbErrorGist("Conversion Error: Could not convert string 'x' to INT32 when casting from source column a")).toBe(
      "Conversion Error: Could not convert string 'x' to INT32 when casting from source column a",
    );
  });
});
