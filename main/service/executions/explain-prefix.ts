import { blockCommentEnd } from '../dunesql/tokens.ts';
import { StatementRefused } from './statement-refused.ts';

/** An `EXPLAIN [ANALYZE] <statement>`, taken apart so that the statement can be checked on its own. */
export interface Explain {
  /** The statement explained, where the text had it, with everything before it blanked. */
  explained: string;
  /** The text to run: `EXPLAIN`, `ANALYZE` and spaces, then exactly `explained`'s statement. */
  run: string;
}

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;

/**
 * The parts of `sql` when it starts with EXPLAIN (after spaces and comments), else null.
 * The text to run is built from what was checked: comments before the statement become spaces,
 * and everything up to it keeps its length and line breaks, so DuckDB's positions in errors still
 * point into the text as written.
 */
export function splitExplain(sql: string): Explain | null {
  const run = sql.split('');
  let at = skipBlank(sql, 0, run);
  if (wordAt(sql, at) !== 'explain') return null;
  at = skipBlank(sql, at + 'explain'.length, run);
  if (sql[at] === '(') throw new StatementRefused('EXPLAIN takes no options here: write EXPLAIN or EXPLAIN ANALYZE before a SELECT');
  const word = wordAt(sql, at);
  if (word === 'analyze' || word === 'analyse') at = skipBlank(sql, at + word.length, run);
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return { explained: blank(sql.slice(0, at)) + sql.slice(at), run: run.slice(0, at).join('') + sql.slice(at) };
}

function wordAt(sql: string, at: number): string {
  WORD.lastIndex = at;
  return WORD.exec(sql)?.[0].toLowerCase() ?? '';
}

/** The position after spaces and comments from `at`; the comments are blanked in `run`. */
function skipBlank(sql: string, at: number, run: string[]): number {
  for (;;) {
    if (/\s/.test(sql[at] ?? '')) at++;
    else if (sql.startsWith('--', at)) {
      const end = sql.indexOf('\n', at);
      at = blankRange(run, at, end < 0 ? sql.length : end);
    } else if (sql.startsWith('/*', at)) at = blankRange(run, at, blockCommentEnd(sql, at));
    else return at;
  }
}

function blankRange(run: string[], from: number, to: number): number {
  for (let i = from; i < to; i++) if (run[i] !== '\n') run[i] = ' ';
  return to;
}
