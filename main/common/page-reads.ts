// How pages of a stored result are read, for the DuckDBs that read them: the service's reader of
// stored results and the app's cache of them.

/** Rows in each block the results grid asks for as it scrolls. */
export const GRID_BLOCK_ROWS = 200;

/**
 * A sorted page (ORDER BY ... LIMIT) of at most this many rows is read in two passes: the sort's
 * keys and the rowid of every row that passes the filter, then every column of the page's rows
 * only, fetched by rowid. In one pass, every column of every passing row went through the sort,
 * which on a million rows took longer than the whole two passes. DuckDB does so only up to 50 rows
 * unless told; the grid's blocks and the service's pages are larger. A window deep into the
 * table (past about a fifth of its rows) is still read in one pass: DuckDB's own choice.
 */
const TWO_PASS_ROWS = GRID_BLOCK_ROWS;

/**
 * DuckDB settings, given as each DuckDB that reads pages is created. The second pass finds the
 * page's rows with the list of their rowids pushed into the table's scan, which skips the parts
 * of the table that hold none of them; DuckDB pushes such a list only up to its own limit on
 * the list's length (50 unless told), so that limit is raised to the page's.
 */
export const PAGE_READ_SETTINGS: Readonly<Record<string, string>> = {
  late_materialization_max_rows: String(TWO_PASS_ROWS),
  dynamic_or_filter_threshold: String(TWO_PASS_ROWS),
};
