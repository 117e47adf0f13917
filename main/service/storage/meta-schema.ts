// API keys as their SHA-256 (hex), never as they are (see accounts/key-hash.ts).
export const API_KEY_HASHES = `CREATE TABLE IF NOT EXISTS api_key_hashes (
    key_hash VARCHAR PRIMARY KEY,
    account_id INTEGER NOT NULL,
    created_at VARCHAR NOT NULL)`;

// The service's own records. Timestamps are ISO strings as the API sends them; JSON columns hold
// small lists (tags, parameter definitions, column names) that are always read whole.
export const META_SCHEMA = [
  `CREATE SEQUENCE IF NOT EXISTS account_ids START 1`,
  `CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY DEFAULT nextval('account_ids'),
    handle VARCHAR NOT NULL UNIQUE,
    kind VARCHAR NOT NULL,
    plan VARCHAR NOT NULL,
    created_at VARCHAR NOT NULL)`,
  API_KEY_HASHES,
  `CREATE TABLE IF NOT EXISTS team_members (
    team_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (team_id, user_id))`,
  `CREATE SEQUENCE IF NOT EXISTS query_ids START 1`,
  `CREATE TABLE IF NOT EXISTS queries (
    id INTEGER PRIMARY KEY DEFAULT nextval('query_ids'),
    owner_id INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    description VARCHAR NOT NULL,
    tags VARCHAR NOT NULL,
    query_sql VARCHAR NOT NULL,
    parameters VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    is_private BOOLEAN NOT NULL,
    is_archived BOOLEAN NOT NULL,
    created_at VARCHAR NOT NULL,
    updated_at VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS executions (
    id VARCHAR PRIMARY KEY,
    query_id INTEGER NOT NULL,
    account_id INTEGER NOT NULL,
    parameters VARCHAR NOT NULL,
    performance VARCHAR NOT NULL,
    state VARCHAR NOT NULL,
    submitted_at VARCHAR NOT NULL,
    started_at VARCHAR,
    ended_at VARCHAR,
    cancelled_at VARCHAR,
    expires_at VARCHAR,
    error_type VARCHAR,
    error_message VARCHAR,
    error_line INTEGER,
    error_column INTEGER,
    column_names VARCHAR,
    column_types VARCHAR,
    row_count BIGINT,
    result_bytes BIGINT,
    pending_millis BIGINT,
    execution_millis BIGINT)`,
  `CREATE INDEX IF NOT EXISTS executions_by_query ON executions (query_id)`,
  `CREATE TABLE IF NOT EXISTS uploaded_tables (
    namespace VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    account_id INTEGER NOT NULL,
    description VARCHAR NOT NULL,
    is_private BOOLEAN NOT NULL,
    size_bytes BIGINT NOT NULL,
    created_at VARCHAR NOT NULL,
    updated_at VARCHAR NOT NULL,
    PRIMARY KEY (namespace, table_name))`,
  // columns added after the first release, for data directories made before them
  `ALTER TABLE executions ADD COLUMN IF NOT EXISTS expired_at VARCHAR`,
  // the query's version when it ran: the latest result is the latest version's (null: run before this was kept)
  `ALTER TABLE executions ADD COLUMN IF NOT EXISTS query_version INTEGER`,
  // each table's own DuckDB file; null for tables of the former shared file until converted
  `ALTER TABLE uploaded_tables ADD COLUMN IF NOT EXISTS file VARCHAR`,
];
