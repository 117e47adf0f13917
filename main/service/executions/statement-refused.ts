/** A query the service will not run, with the reason in words (never a DuckDB error). */
export class StatementRefused extends Error {}
