// SQL text cut into tokens that, joined, give the text back exactly: the rewrite changes the
// tokens it means to and can never touch a string, a quoted name or a comment.

export type TokenKind = 'space' | 'comment' | 'string' | 'quoted' | 'word' | 'number' | 'hex' | 'symbol';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Where the token starts in the text. */
  start: number;
}

// Sticky patterns, each tried where the last token ended.
const SPACE = /\s+/y;
const WORD = /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/y;
// 0x followed by letters past the hex digits is not a literal (DuckDB reads `0 xyz`)
const HEX = /0[xX][0-9A-Fa-f]+(?![A-Za-z0-9_$\u0080-\uffff])/y;
const NUMBER = /(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?/y;
const DOLLAR_TAG = /\$[A-Za-z_]*\$/y;

/** The text's tokens; one left open (a string or comment with no end) runs to the end of the text. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < sql.length) {
    const [kind, end] = next(sql, at);
    tokens.push({ kind, text: sql.slice(at, end), start: at });
    at = end;
  }
  return tokens;
}

function next(sql: string, at: number): [TokenKind, number] {
  const c = sql[at]!;
  const d = sql[at + 1];
  if (c === '-' && d === '-') return ['comment', lineEnd(sql, at)];
  if (c === '/' && d === '*') return ['comment', blockCommentEnd(sql, at)];
  if (c === "'") return ['string', quotedEnd(sql, at, "'", false)];
  // DuckDB's escape strings (E'it\'s') take backslash escapes
  if ((c === 'E' || c === 'e') && d === "'") return ['string', quotedEnd(sql, at + 1, "'", true)];
  if (c === '"') return ['quoted', quotedEnd(sql, at, '"', false)];
  if (c === '$') {
    const tag = match(DOLLAR_TAG, sql, at);
    if (tag > at) {
      const close = sql.indexOf(sql.slice(at, tag), tag);
      return ['string', close < 0 ? sql.length : close + (tag - at)];
    }
  }
  const space = match(SPACE, sql, at);
  if (space > at) return ['space', space];
  const hex = match(HEX, sql, at);
  if (hex > at) return ['hex', hex];
  const number = match(NUMBER, sql, at);
  if (number > at) return ['number', number];
  const word = match(WORD, sql, at);
  if (word > at) return ['word', word];
  return ['symbol', at + 1];
}

/** Where `pattern` (sticky) matching at `at` ends; `at` when it does not match there. */
function match(pattern: RegExp, sql: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(sql) ? pattern.lastIndex : at;
}

function lineEnd(sql: string, at: number): number {
  const end = sql.indexOf('\n', at);
  return end < 0 ? sql.length : end;
}

/** The end of the block comment that starts at `at`: DuckDB's comments nest, as PostgreSQL's do. */
export function blockCommentEnd(sql: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return sql.length;
}

/** The end of a text opened by `quote` at `at`; a doubled quote (or, in an escape string, `\'`) stays inside. */
function quotedEnd(sql: string, at: number, quote: string, backslash: boolean): number {
  let i = at + 1;
  while (i < sql.length) {
    const close = sql.indexOf(quote, i);
    if (close < 0) return sql.length;
    if (backslash && escaped(sql, i, close)) i = close + 1;
    else if (sql[close + 1] === quote) i = close + 2;
    else return close + 1;
  }
  return sql.length;
}

/** Whether the quote at `close` is escaped by the backslashes before it (an odd run of them), from `from` on. */
function escaped(sql: string, from: number, close: number): boolean {
  let count = 0;
  for (let i = close - 1; i >= from && sql[i] === '\\'; i--) count++;
  return count % 2 === 1;
}
