import { z } from 'zod';
import { fail, ok, ParameterValues, type ParameterSet, type Result } from '../../contract/index.ts';
import { openRecordLog, type RecordLog } from '../executions/run-log.ts';

// One account's parameter sets, of all its queries, in one log (see run-log.ts): each save, rename
// or delete is a line appended at once, so a set survives a kill, and a line that cannot be read
// is skipped and counted. A delete is a line too (the set's key, marked deleted); the log is
// written again without the stale lines once they outnumber the sets.

const SetRecord = z.object({
  queryId: z.number().int(),
  name: z.string(),
  values: ParameterValues,
  savedAt: z.string(),
  deleted: z.literal(true).optional(),
});
type SetRecord = z.infer<typeof SetRecord>;

const keyOf = (record: SetRecord) => `${record.queryId}\u0000${record.name}`;
const STALE_LINES_AT_LEAST = 200;

export interface SetList {
  sets: ParameterSet[];
  skipped: number;
}

export class ParameterSets {
  readonly #log: RecordLog<SetRecord>;
  readonly #now: () => Date;
  /** Every live set, in the order they were made. */
  #records: SetRecord[];
  readonly #skipped: number;

  constructor(path: string, now: () => Date = () => new Date()) {
    this.#log = openRecordLog(path, SetRecord, keyOf);
    this.#now = now;
    const { records, skipped } = this.#log.read();
    this.#records = records.filter((record) => record.deleted !== true);
    this.#skipped = skipped;
  }

  list(queryId: number): SetList {
    const sets = this.#records
      .filter((record) => record.queryId === queryId)
      .map(({ name, values, savedAt }) => ({ name, values, savedAt }));
    return { sets, skipped: this.#skipped };
  }

  save(queryId: number, name: string, values: ParameterValues): SetList {
    const record = { queryId, name, values, savedAt: this.#now().toISOString() };
    const at = this.#records.findIndex((r) => keyOf(r) === keyOf(record));
    if (at >= 0) this.#records[at] = record;
    else this.#records.push(record);
    this.#append(record);
    return this.list(queryId);
  }

  rename(queryId: number, name: string, newName: string): Result<SetList> {
    const record = this.#find(queryId, name);
    if (!record) return missing(name);
    if (newName === name) return ok(this.list(queryId));
    if (this.#find(queryId, newName)) return fail('bad_request', `A set named “${newName}” exists already: choose another name.`);
    const renamed = { ...record, name: newName, savedAt: this.#now().toISOString() };
    this.#records = this.#records.map((r) => (r === record ? renamed : r));
    this.#append(renamed);
    this.#append({ ...record, deleted: true });
    return ok(this.list(queryId));
  }

  delete(queryId: number, name: string): Result<SetList> {
    const record = this.#find(queryId, name);
    if (!record) return missing(name);
    this.#records = this.#records.filter((r) => r !== record);
    this.#append({ ...record, deleted: true });
    return ok(this.list(queryId));
  }

  #find(queryId: number, name: string): SetRecord | undefined {
    return this.#records.find((r) => r.queryId === queryId && r.name === name);
  }

  #append(record: SetRecord): void {
    this.#log.append(record);
    if (this.#log.lines > this.#records.length * 2 + STALE_LINES_AT_LEAST) this.#log.rewrite(this.#records);
  }
}

function missing(name: string) {
  return fail('not_found', `There is no parameter set named “${name}” for this query.`);
}
