import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionBudget } from '../../../../main/service/executions/execution-budget.ts';
import type { ServiceBudget } from '../../../../main/service/executions/plan-limits.ts';
import { Sandboxes } from '../../../../main/service/executions/sql-sandbox.ts';
import { SampleTables } from '../../../../main/service/samples/sample-tables.ts';
import { TableFiles } from '../../../../main/service/tables/table-files.ts';

// A context's DuckDB is kept for its next execution, and holds what its executions left in memory
// until it is closed: one left unused for a while is closed, giving its memory and its share of the
// service's budget back; one in use, or used lately, stays.

const CONTEXT: ServiceBudget = { memoryBytes: 64 * 1024 * 1024, spillBytes: 64 * 1024 * 1024 };
let dir: string;
let budget: ExecutionBudget;
let sandboxes: Sandboxes;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-idle-contexts-'));
  // room for one context's DuckDB: whether the budget fits again tells whether it was closed
  budget = new ExecutionBudget(CONTEXT);
  sandboxes = new Sandboxes({ readable: async () => [] } as never, new TableFiles(join(dir, 'tables')), {
    catalog: 'dune',
    tempDir: join(dir, 'tmp'),
    hiddenPaths: [dir],
    budget,
    samples: new SampleTables(dir),
  });
});
afterAll(async () => {
  await sandboxes?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a statement in the context's DuckDB, and answers the open sandbox when `keepOpen`. */
async function execute(keepOpen = false) {
  const reservation = sandboxes.reserve(7, CONTEXT);
  expect(reservation).not.toBeNull();
  const sandbox = await sandboxes.open(reservation!, 'SELECT 1');
  await sandbox.connection.run('SELECT sum(i) FROM range(100000) t(i)');
  if (keepOpen) return sandbox;
  sandbox.close();
  return null;
}

describe('the contexts’ DuckDBs', () => {
  it('are kept while used lately, and closed once idle, giving their budget back', async () => {
    await execute();
    expect(budget.fits(CONTEXT)).toBe(false);
    sandboxes.closeIdle(60_000);
    expect(budget.fits(CONTEXT)).toBe(false);
    sandboxes.closeIdle(0);
    expect(budget.fits(CONTEXT)).toBe(true);
  });

  it('stay open while an execution runs in them', async () => {
    const running = await execute(true);
    sandboxes.closeIdle(0);
    expect(budget.fits(CONTEXT)).toBe(false);
    await running!.connection.run('SELECT 2');
    running!.close();
    sandboxes.closeIdle(0);
    expect(budget.fits(CONTEXT)).toBe(true);
  });
});
