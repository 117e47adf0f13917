// Quoting for SQL text: the service, the cache, the filter language and the grid's copy formats
// all build SQL around names and texts they do not control. One definition, so a name or a text
// holding a quote is written the same, and safely, in every layer.

/** A string literal in single quotes, whatever the text holds. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** An identifier in double quotes, whatever the name holds. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
