import type { ParameterValues } from '$contract/index.ts';

// How a run is named in lists: its values on one line, and the first line of SQL that says something.

/** The values a run was given, on one line: "chain = base · tokens = a, b". */
export function parameterText(values: ParameterValues): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} = ${Array.isArray(value) ? value.join(', ') : value}`)
    .join(' · ');
}

/** The first line of SQL that is neither blank nor a comment. */
export function firstSqlLine(sql: string): string {
  return (
    sql
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && !line.startsWith('--')) ?? sql.trim()
  );
}
