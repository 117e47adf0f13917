import type { DuckDBConnection } from '@duckdb/node-api';
import { isCheckpointBlocked } from '../../common/duckdb-errors.ts';

const CHECKPOINT_TRIES = 20;

/**
 * Writes an attached database's committed changes into its file. DuckDB refuses while another
 * connection's write transaction is open, even one that writes elsewhere: it is tried again a
 * little later, and if that never comes the changes stay in the write-ahead log, as durable,
 * which DETACH or the next ATTACH writes in.
 */
export async function checkpoint(connection: Pick<DuckDBConnection, 'run'>, alias: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await connection.run(`CHECKPOINT ${alias}`);
      return;
    } catch (error) {
      if (!(error instanceof Error && isCheckpointBlocked(error.message))) throw error;
      if (attempt === CHECKPOINT_TRIES) return;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}
