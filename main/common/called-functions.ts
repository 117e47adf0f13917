// Which functions user SQL may call, judged by name in DuckDB's own trees of the statement: the
// parsed one (json_serialize_sql), before anything is bound, and the bound plan
// (json_serialize_plan), where views, table macros and query_table() have become what they read.

// Functions whose answers describe the service's host rather than data: the files behind the
// attached tables, the settings (temporary and allowed directories, the home folder's secrets and
// extensions), spill files, logs, memory, the platform.
const HOST_FUNCTIONS = new Set([
  'current_setting',
  'duckdb_approx_database_count',
  'duckdb_connection_count',
  'duckdb_databases',
  'duckdb_extensions',
  'duckdb_external_file_cache',
  'duckdb_log_contexts',
  'duckdb_logs',
  'duckdb_logs_parsed',
  'duckdb_memory',
  'duckdb_prepared_statements',
  'duckdb_profiling_settings',
  'duckdb_secret_types',
  'duckdb_secrets',
  'duckdb_settings',
  'duckdb_temporary_files',
  'pragma_database_size',
  'pragma_metadata_info',
  'pragma_platform',
  'pragma_storage_info',
  'pragma_user_agent',
  'which_secret',
]);

// The table functions a query may read from: tables (seq_scan), generated rows, JSON values, and
// the catalog of what it may read. Every other one reads files, runs SQL text the checks never see,
// or changes the service (logging, profiling, checkpoints): a list of what is allowed, so that a
// function DuckDB adds is refused until it is judged.
const TABLE_FUNCTIONS = new Set([
  'duckdb_columns',
  'duckdb_constraints',
  'duckdb_coordinate_systems',
  'duckdb_dependencies',
  'duckdb_functions',
  'duckdb_indexes',
  'duckdb_keywords',
  'duckdb_optimizers',
  'duckdb_schemas',
  'duckdb_sequences',
  'duckdb_tables',
  'duckdb_types',
  'duckdb_variables',
  'duckdb_views',
  'generate_series',
  'icu_calendar_names',
  'json_each',
  'json_tree',
  'pg_timezone_names',
  'pragma_collations',
  'pragma_show',
  'pragma_table_info',
  'pragma_version',
  'range',
  'repeat',
  'repeat_row',
  'seq_scan',
  'summary',
  'test_all_types',
  'test_vector_types',
  'unnest',
]);

// Table functions the binder replaces by what they read, so they are only in the parsed tree.
const REPLACED_TABLE_FUNCTIONS = new Set(['histogram', 'histogram_values', 'query_table']);

// Other functions that reach past the data: the plan of SQL text with the settings folded into
// it, a write to the log.
const REFUSED_FUNCTIONS = new Set(['json_serialize_plan', 'write_log']);

export type Tree = 'parsed' | 'bound';

export interface Call {
  name: string;
  table: boolean;
}

/** Why the statement may not run, or null: the first function it calls that is not available. */
export function refusedCall(tree: unknown, kind: Tree): string | null {
  for (const { name, table } of calls(tree, kind)) {
    if (HOST_FUNCTIONS.has(name)) return `${name}() is not available: it describes the service's host, not data`;
    const allowed = table
      ? TABLE_FUNCTIONS.has(name) || (kind === 'parsed' && REPLACED_TABLE_FUNCTIONS.has(name))
      : !REFUSED_FUNCTIONS.has(name);
    if (!allowed) return `${name}() is not available: a query reads tables, never files or SQL text, and changes nothing`;
  }
  return null;
}

/** Every function a tree calls, in lower case, table functions marked. */
export function calls(node: unknown, kind: Tree, into: Call[] = []): Call[] {
  if (Array.isArray(node)) {
    for (const item of node) calls(item, kind, into);
  } else if (node !== null && typeof node === 'object') {
    const call = callOf(node as Record<string, unknown>, kind);
    if (call) into.push(call);
    for (const value of Object.values(node)) calls(value, kind, into);
  }
  return into;
}

function callOf(node: Record<string, unknown>, kind: Tree): Call | null {
  if (kind === 'parsed') {
    // a table function's call is a FUNCTION node too, seen again below its TABLE_FUNCTION
    if (node.type === 'TABLE_FUNCTION') return named((node.function as Record<string, unknown>)?.function_name, true);
    return node.class === 'FUNCTION' ? named(node.function_name, false) : null;
  }
  if (node.type === 'LOGICAL_GET') return named(node.name, true);
  return typeof node.expression_class === 'string' ? named(node.name, false) : null;
}

function named(name: unknown, table: boolean): Call | null {
  return typeof name === 'string' ? { name: name.toLowerCase(), table } : null;
}
