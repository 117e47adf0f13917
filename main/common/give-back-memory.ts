import { duckdbBytes } from './memory-budgets.ts';

// What a DuckDB's limit is lowered to for a moment: below it, DuckDB drops every block it can.
const LOWERED_BYTES = 8 * 1024 * 1024;

/**
 * Has a DuckDB give back the blocks of its files it keeps in memory: DuckDB keeps what it read up
 * to its limit and frees it only when it needs the room, so a limit lowered for a moment makes it
 * drop them (they are read again from the file when needed), and `limitBytes` is its limit again
 * after. Run it only while nothing else runs on that DuckDB, as the lower limit holds for all its
 * connections. Blocks in use, or held in memory only, stay: DuckDB then refuses the lower limit,
 * having dropped what it could.
 */
export async function giveBackMemory(run: (sql: string) => Promise<unknown>, limitBytes: number): Promise<void> {
  try {
    await run(`SET memory_limit = '${duckdbBytes(LOWERED_BYTES)}'`);
  } catch {
    // refused with what it holds still above the lowered limit: what it could drop is dropped
  } finally {
    await run(`SET memory_limit = '${duckdbBytes(limitBytes)}'`);
  }
}
