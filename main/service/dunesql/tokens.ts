// SQL text cut into tokens that, joined, give the text back exactly: the rewrite changes the
// tokens it means to and can never touch a string, a quoted name or a comment.

export type TokenKind = 'space' | 'comment' | 'string' | 'quoted' | 'word' | 'number' | 'hex' | 'symbol';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Where the token starts in the text. */
  start: number;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DIGIT = /[0-9]/;
const HEX_DIGIT = /[0-9A-Fa-f]/;

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
  if (/\s/.test(c)) return ['space', run(sql, at, (ch) => /\s/.test(ch))];
  if (c === '-' && d === '-') return ['comment', lineEnd(sql, at)];
  if (c === '/' && d === '*') return ['comment', blockCommentEnd(sql, at)];
  if (c === "'") return ['string', quotedEnd(sql, at, "'", false)];
  // DuckDB's escape strings (E'it\'s') take backslash escapes
  if ((c === 'E' || c === 'e') && d === "'") return ['string', quotedEnd(sql, at + 1, "'", true)];
  if (c === '"') return ['quoted', quotedEnd(sql, at, '"', false)];
  if (c === '$') {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(at, at + 64));
    if (tag) {
      const close = sql.indexOf(tag[0], at + tag[0].length);
      return ['string', close < 0 ? sql.length : close + tag[0].length];
    }
  }
  if (c === '0' && (d === 'x' || d === 'X')) {
    const end = run(sql, at + 2, (ch) => HEX_DIGIT.test(ch));
    // 0x followed by letters past the hex digits is not a literal (DuckDB reads `0 xyz`)
    if (end > at + 2 && !WORD_PART.test(sql[end] ?? '')) return ['hex', end];
  }
  if (DIGIT.test(c) || (c === '.' && DIGIT.test(d ?? ''))) return ['number', numberEnd(sql, at)];
  if (WORD_START.test(c)) return ['word', run(sql, at, (ch) => WORD_PART.test(ch))];
  return ['symbol', at + 1];
}

function run(sql: string, from: number, keep: (ch: string) => boolean): number {
  let at = from;
  while (at < sql.length && keep(sql[at]!)) at++;
  return at;
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

/** The end of a text opened by `quote` at `at`; a doubled quote stays inside. */
function quotedEnd(sql: string, at: number, quote: string, backslash: boolean): number {
  let i = at + 1;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (backslash && ch === '\\') i += 2;
    else if (ch === quote && sql[i + 1] === quote) i += 2;
    else if (ch === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

function numberEnd(sql: string, at: number): number {
  let i = run(sql, at, (ch) => DIGIT.test(ch) || ch === '_');
  if (sql[i] === '.') i = run(sql, i + 1, (ch) => DIGIT.test(ch) || ch === '_');
  if ((sql[i] === 'e' || sql[i] === 'E') && /[0-9]|[+-][0-9]/.test(sql.slice(i + 1, i + 3))) {
    i = run(sql, i + 2, (ch) => DIGIT.test(ch));
  }
  return i;
}
