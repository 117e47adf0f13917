import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isCheckpointBlocked,
  isInvalidatedDatabase,
  isValueError,
  missingTable,
  outOfMemory,
  readDuckdbError,
} from '../../../main/common/duckdb-errors.ts';

// The messages come from a real DuckDB, so an upgrade that rewords them fails here.

let instance: DuckDBInstance;
let connection: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

async function messageOf(sql: string): Promise<string> {
  try {
    await connection.run(sql);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${sql} did not fail`);
}

describe("DuckDB's errors", () => {
  it('reads the exception type a message starts with, and the words after it', async () => {
    expect(readDuckdbError(await messageOf("SELECT 'abc'::INTEGER"))).toMatchObject({
      type: 'Conversion',
      text: expect.stringContaining('abc'),
    });
    expect(readDuckdbError(await messageOf('SELEC 1'))?.type).toBe('Parser');
    expect(readDuckdbError('Out of Memory Error: failed to allocate')).toEqual({ type: 'Out of Memory', text: 'failed to allocate' });
    expect(readDuckdbError('connect ECONNREFUSED')).toBeNull();
  });

  it("takes a value or operator its column's type cannot hold as a value error", async () => {
    for (const sql of ["SELECT 'abc'::INTEGER", 'SELECT [1, 2] > 1', "SELECT {'a': 1} = 2"]) {
      expect(isValueError(await messageOf(sql)), sql).toBe(true);
    }
    expect(isValueError('Not implemented Error: ordering of this type')).toBe(true);
    expect(isValueError('Invalid Input Error: no such value')).toBe(true);
    expect(isValueError(await messageOf('SELECT * FROM nowhere'))).toBe(false);
    expect(isValueError(await messageOf('SELEC 1'))).toBe(false);
  });

  it('names the table a Catalog Error says does not exist, as DuckDB gives it', async () => {
    expect(missingTable(await messageOf('SELECT * FROM nowhere'))).toBe('nowhere');
    expect(missingTable(await messageOf('SELECT * FROM ethereum.logs'))).toBe('ethereum.logs');
    expect(missingTable('Catalog Error: Table with name "odd name" does not exist!')).toBe('odd name');
    expect(missingTable(await messageOf('SELECT nope()'))).toBeNull();
    expect(missingTable(await messageOf("SELECT 'abc'::INTEGER"))).toBeNull();
  });

  it('gives the first line of an out-of-memory error, and nothing for another', () => {
    expect(outOfMemory('Out of Memory Error: could not allocate block of size 256 KiB\n\nPossible solutions: ...')).toBe(
      'could not allocate block of size 256 KiB',
    );
    expect(outOfMemory('IO Error: Out of Memory Error: nested')).toBeNull();
  });

  it('knows a database given up on and a checkpoint others block, whatever their type', () => {
    expect(
      isInvalidatedDatabase(
        'FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted',
      ),
    ).toBe(true);
    expect(isInvalidatedDatabase('Invalid Input Error: The database has been invalidated')).toBe(false);
    expect(
      isCheckpointBlocked(
        'TransactionContext Error: Cannot CHECKPOINT: there are other write transactions active. Try using FORCE CHECKPOINT',
      ),
    ).toBe(true);
    expect(isCheckpointBlocked('IO Error: could not write')).toBe(false);
  });
});
