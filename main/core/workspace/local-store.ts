import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Draft, LocalQuery, PendingEdit, QueryDetail, TableSummary, type DraftKey } from '../../contract/index.ts';
import { jsonFileStore, type SettingsStore } from '../settings/settings-store.ts';
import { ParameterSets } from './parameter-sets.ts';
import { QueryVersions } from './query-versions.ts';

// One account's workspace on disk: a few small JSON files, each written atomically (flushed, then
// renamed), so a crash leaves every file as it was before or after a write, never torn. Files
// rather than a database: they are small, written one at a time, and a draft written every few
// hundred milliseconds must not wait behind a result download.

const Catalog = z.object({ queries: z.array(LocalQuery), fetchedAt: z.string().nullable() });
const Tables = z.object({ tables: z.array(TableSummary), fetchedAt: z.string().nullable() });
const StoredQuery = z.object({ query: QueryDetail, fetchedAt: z.string() });
const Pending = z.object({ edits: z.array(PendingEdit) });

export type Catalog = z.infer<typeof Catalog>;
export type StoredQuery = z.infer<typeof StoredQuery>;

function draftFile(key: DraftKey): string {
  return 'queryId' in key ? `query-${key.queryId}.json` : `new-${key.newId}.json`;
}

export class LocalStore {
  readonly #dir: string;
  readonly #catalog: SettingsStore<Catalog>;
  readonly #tables: SettingsStore<z.infer<typeof Tables>>;
  readonly #pending: SettingsStore<z.infer<typeof Pending>>;
  /** Every version of its queries seen here, recorded with each query written. */
  readonly versions: QueryVersions;
  #parameterSets: ParameterSets | null = null;

  constructor(dir: string) {
    this.#dir = dir;
    this.versions = new QueryVersions(join(dir, 'versions'));
    this.#catalog = jsonFileStore(join(dir, 'catalog.json'), Catalog, () => ({ queries: [], fetchedAt: null }));
    this.#tables = jsonFileStore(join(dir, 'tables.json'), Tables, () => ({ tables: [], fetchedAt: null }));
    this.#pending = jsonFileStore(join(dir, 'pending.json'), Pending, () => ({ edits: [] }));
  }

  catalog(): Catalog {
    return this.#catalog.read();
  }

  writeCatalog(catalog: Catalog): void {
    this.#catalog.write(catalog);
  }

  tables(): z.infer<typeof Tables> {
    return this.#tables.read();
  }

  writeTables(tables: TableSummary[], fetchedAt: string): void {
    this.#tables.write({ tables, fetchedAt });
  }

  query(queryId: number): StoredQuery | null {
    return this.#queryFile(queryId).read();
  }

  writeQuery(query: QueryDetail, fetchedAt: string): void {
    this.#queryFile(query.id).write({ query, fetchedAt });
    this.versions.record(query, fetchedAt);
  }

  /** Its queries' parameter sets, read at their first use. */
  parameterSets(): ParameterSets {
    this.#parameterSets ??= new ParameterSets(join(this.#dir, 'parameter-sets.jsonl'));
    return this.#parameterSets;
  }

  forgetQuery(queryId: number): void {
    rmSync(join(this.#dir, 'queries', `${queryId}.json`), { force: true });
  }

  drafts(): Draft[] {
    const dir = join(this.#dir, 'drafts');
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const draft = jsonFileStore(join(dir, name), Draft.nullable(), () => null).read();
      return draft ? [draft] : [];
    });
  }

  writeDraft(draft: Draft): void {
    jsonFileStore(join(this.#dir, 'drafts', draftFile(draft.key)), Draft, () => draft).write(draft);
  }

  removeDraft(key: DraftKey): void {
    rmSync(join(this.#dir, 'drafts', draftFile(key)), { force: true });
  }

  pending(): PendingEdit[] {
    return this.#pending.read().edits;
  }

  writePending(edits: PendingEdit[]): void {
    this.#pending.write({ edits });
  }

  #queryFile(queryId: number): SettingsStore<StoredQuery | null> {
    mkdirSync(join(this.#dir, 'queries'), { recursive: true });
    return jsonFileStore(join(this.#dir, 'queries', `${queryId}.json`), StoredQuery.nullable(), () => null);
  }
}
