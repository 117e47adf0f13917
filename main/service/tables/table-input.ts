import { z } from 'zod';
import { duneTypeOfDuckdb } from '../../common/dune-types/index.ts';
import type { Plan } from '../accounts/account-store.ts';

// Rules of the real service's uploads (spec §4.9, notes §9).

export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
export const MAX_INSERT_GB = 1.2;
// in whole bytes: 1.2 GB is no whole number of them
export const MAX_INSERT_BYTES = Math.floor(MAX_INSERT_GB * 1024 ** 3);
export const STORAGE_BY_PLAN: Record<Plan, number> = { free: 1024 ** 2, plus: 15 * 1024 ** 3, premium: 50 * 1024 ** 3 };

const tableName = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'table_name must start with a lowercase letter and hold only a-z, 0-9 and _')
  .max(128);

/** An upload's fields besides `data`, which is streamed to a file rather than parsed (see JsonFieldStream). */
export const UploadCsvFields = z.object({
  table_name: tableName,
  description: z.string().default(''),
  is_private: z.boolean().default(false),
});

/** The column types a created table may have, and DuckDB's type for each. */
export const COLUMN_TYPES: Record<string, string> = {
  varchar: 'VARCHAR',
  varbinary: 'BLOB',
  // DuckDB's widest integers; values beyond 128 bits are refused when inserted
  uint256: 'UHUGEINT',
  int256: 'HUGEINT',
  bigint: 'BIGINT',
  integer: 'INTEGER',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
  date: 'DATE',
};

const UPLOAD_TYPE_OF: Record<string, string> = Object.fromEntries(Object.entries(COLUMN_TYPES).map(([dune, duckdb]) => [duckdb, dune]));

/**
 * A table column's type as the tables list names it: the upload type it was made with (a
 * `timestamp` column stays `timestamp`, as the client that made it compares), else, for a type
 * only a CSV file gives, its DuneSQL name.
 */
export function listedColumnType(duckdbType: string): string {
  return Object.hasOwn(UPLOAD_TYPE_OF, duckdbType) ? UPLOAD_TYPE_OF[duckdbType]! : duneTypeOfDuckdb(duckdbType);
}

export const CreateTableBody = z.object({
  namespace: z.string().min(1),
  table_name: tableName,
  schema: z
    .array(
      z.object({
        name: z.string().min(1),
        type: z.enum(Object.keys(COLUMN_TYPES) as [string, ...string[]], {
          message: `type must be one of ${Object.keys(COLUMN_TYPES).join(', ')}`,
        }),
        nullable: z.boolean().default(true),
      }),
    )
    .min(1, 'schema needs at least one column'),
  description: z.string().default(''),
  is_private: z.boolean().default(false),
});

// the naming rules of columns are shared with the app, which checks a file by them before sending it
export { badColumnName, repeatedColumnName } from '../../common/column-names.ts';
