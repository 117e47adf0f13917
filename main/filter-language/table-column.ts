// A column of the table a request is answered from: what compiling a request and checking its
// values both read.

/** A column of the table a request is answered from, with its DuckDB type name. */
export interface Column {
  name: string;
  type: string;
  /** The type as the service named it (`uint256`, `varbinary`), where it differs from `type`. */
  duneType?: string;
}
