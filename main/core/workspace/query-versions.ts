import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { QueryVersion, type QueryDetail } from '../../contract/index.ts';
import { openRecordLog, type RecordLog } from '../executions/run-log.ts';

// Every version of a query this computer saw, one log per query in the account's workspace folder
// (see run-log.ts): a version is on disk as soon as it is saved or read, and a line that cannot
// be read is skipped and counted. A version already kept with the same text is not written again,
// so opening a query over and over costs nothing.

const keyOf = (record: QueryVersion) => String(record.version);

/** What makes two records of one version the same; a digest, so the SQL is not held in memory. */
const contentOf = (record: Pick<QueryVersion, 'name' | 'sql' | 'parameters'>) =>
  createHash('sha256')
    .update(JSON.stringify([record.name, record.sql, record.parameters]))
    .digest('base64');

/** A query's log, and each version's content as kept (null until the log is read). */
interface Opened {
  log: RecordLog<QueryVersion>;
  kept: Map<number, string> | null;
}

export class QueryVersions {
  readonly #dir: string;
  readonly #open = new Map<number, Opened>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Keeps the query's version, unless this version is kept already with the same text. */
  record(query: QueryDetail, recordedAt: string): void {
    const opened = this.#of(query.id);
    const kept = opened.kept ?? this.#read(opened).kept;
    const content = contentOf(query);
    if (kept.get(query.version) === content) return;
    opened.log.append({ version: query.version, recordedAt, name: query.name, sql: query.sql, parameters: query.parameters });
    kept.set(query.version, content);
  }

  /** Newest first; `skipped`: the lines of the query's log that could not be read. */
  list(queryId: number): { versions: QueryVersion[]; skipped: number } {
    const { records, skipped } = this.#read(this.#of(queryId));
    return { versions: records.sort((a, b) => b.version - a.version), skipped };
  }

  /** The log read, and what it keeps of each version noted for the next records. */
  #read(opened: Opened): { records: QueryVersion[]; skipped: number; kept: Map<number, string> } {
    const { records, skipped } = opened.log.read();
    opened.kept = new Map(records.map((record) => [record.version, contentOf(record)]));
    return { records, skipped, kept: opened.kept };
  }

  #of(queryId: number): Opened {
    let opened = this.#open.get(queryId);
    if (!opened) {
      opened = { log: openRecordLog(join(this.#dir, `${queryId}.jsonl`), QueryVersion, keyOf), kept: null };
      this.#open.set(queryId, opened);
    }
    return opened;
  }
}
