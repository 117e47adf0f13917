import type { LocalQuery } from '$contract/index.ts';

// The list's filter finds a query by its name, a tag, or a line of its SQL (as last fetched,
// so offline too); for a match in the SQL the line is shown under the name.

export interface SqlLineMatch {
  /** The line, trimmed, cut around the match when long. */
  text: string;
  /** Where the match is in `text`. */
  start: number;
  end: number;
}

export interface QueryMatch {
  query: LocalQuery;
  /** Set when only the SQL matched. */
  line: SqlLineMatch | null;
}

const SHOWN = 60;

function sqlLine(sql: string, needle: string): SqlLineMatch | null {
  for (const raw of sql.split('\n')) {
    const at = raw.toLocaleLowerCase().indexOf(needle);
    if (at < 0) continue;
    const indent = raw.length - raw.trimStart().length;
    let text = raw.trim();
    let start = at - indent;
    // a long line is shown from a little before the match
    if (text.length > SHOWN && start > 20) {
      const cut = start - 20;
      text = `…${text.slice(cut)}`;
      start = start - cut + 1;
    }
    return { text, start, end: start + needle.length };
  }
  return null;
}

export function searchQueries(queries: LocalQuery[], filter: string): QueryMatch[] {
  const needle = filter.trim().toLocaleLowerCase();
  if (!needle) return queries.map((query) => ({ query, line: null }));
  const matches: QueryMatch[] = [];
  for (const query of queries) {
    if (query.name.toLocaleLowerCase().includes(needle) || query.tags.some((tag) => tag.toLocaleLowerCase().includes(needle))) {
      matches.push({ query, line: null });
      continue;
    }
    const line = query.sql ? sqlLine(query.sql, needle) : null;
    if (line) matches.push({ query, line });
  }
  return matches;
}
