import { quoteLiteral } from '../../common/sql-quote.ts';
import { argumentRanges, bracketGroups, type Group } from './brackets.ts';
import { javaPattern, mysqlPattern, PatternError } from './date-patterns.ts';
import { tokenize, type Token } from './tokens.ts';

// The DuneSQL that DuckDB's parser cannot take as it is, rewritten token by token: varbinary
// literals, `timestamp(3)`, date patterns, and aggregates whose macro cannot carry DISTINCT,
// FILTER, ORDER BY or OVER. Functions are macros (see macros.ts) and need no rewrite. DuckDB SQL
// comes through unchanged: none of these is valid DuckDB with another meaning (DuckDB reads
// `0xab` as `0 AS xab`).

/** A DuneSQL construct the offline engine cannot run, and where it starts in the SQL. */
export class DialectError extends Error {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

export interface Rewritten {
  sql: string;
  /** Where a position of the rewritten SQL was in the SQL given (a rewritten token's start). */
  originalOffset(offset: number): number;
}

// DuneSQL functions DuckDB has nothing like: refused by name rather than failing on a lookalike.
const UNAVAILABLE = new Set([
  'approx_set',
  'empty_approx_set',
  'merge',
  'make_set_digest',
  'merge_set_digest',
  'tdigest_agg',
  'qdigest_agg',
  'value_at_quantile',
  'values_at_quantiles',
  'keccak',
  'http_get',
  'http_post',
  'varbinary_to_int256',
  'varbinary_to_integer',
  'varbinary_to_bigint',
  'varbinary_to_decimal',
  'bytearray_to_int256',
  'bytearray_to_integer',
  'bytearray_to_bigint',
  'bytearray_to_decimal',
  'from_base58',
  'to_base58',
  'decode_evm_event',
  'decode_evm_function_call',
]);

// Functions taking a date pattern: its language, and DuckDB's function that takes it as strftime's.
const PATTERNS: Record<string, { convert: (pattern: string) => string; duckdb: string }> = {
  date_format: { convert: mysqlPattern, duckdb: 'strftime' },
  format_datetime: { convert: javaPattern, duckdb: 'strftime' },
  date_parse: { convert: mysqlPattern, duckdb: 'strptime' },
  parse_datetime: { convert: javaPattern, duckdb: 'strptime' },
};

// Aggregate macros, and the aggregate that a call with DISTINCT, ORDER BY, FILTER or OVER becomes.
const AGGREGATES: Record<string, string> = {
  sum: 'system.main.sum',
  approx_distinct: 'approx_count_distinct',
  approx_percentile: 'approx_quantile',
};
// DuckDB's own sum of a UHUGEINT is a DOUBLE: what it sums is made exact first (see macros.ts).
const EXACT_SUM = 'dunesql_exact_sum_input';

/** What replaces tokens (by index), and text put before or after some. */
interface Changes {
  replaced: Map<number, string>;
  before: Map<number, string>;
  after: Map<number, string>;
}

interface Piece {
  at: number;
  from: number;
  same: boolean;
}

/** `sql` as DuckDB runs it; throws `DialectError` for what the offline engine cannot run. */
export function rewriteDuneSql(sql: string): Rewritten {
  const tokens = tokenize(sql);
  const groups = bracketGroups(tokens);
  const changes: Changes = { replaced: new Map(), before: new Map(), after: new Map() };
  const { replaced } = changes;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'hex') replaced.set(i, blobLiteral(token));
    if (token.kind !== 'word' || tokens[significant(tokens, i, -1)]?.text === '.') continue;
    const name = token.text.toLowerCase();
    const open = significant(tokens, i, 1);
    const group = tokens[open]?.text === '(' ? groups.get(open) : undefined;
    if (!group) continue;
    if (UNAVAILABLE.has(name)) throw new DialectError(`\`${name}\` is not available offline`, token.start);
    if (name === 'timestamp') dropPrecision(tokens, open, replaced);
    const pattern = PATTERNS[name];
    if (pattern) rewritePattern(tokens, i, argumentRanges(open, group), pattern, replaced);
    const aggregate = AGGREGATES[name];
    // a bare NULL matches every typed overload of the sum macro alike
    if (name === 'sum' && onlyToken(tokens, open, group.close)?.text.toLowerCase() === 'null') replaced.set(i, aggregate!);
    else if (aggregate && hasModifiers(tokens, open, group)) {
      replaced.set(i, aggregate);
      if (name === 'sum') wrapFirstArgument(tokens, open, group, EXACT_SUM, changes);
    }
  }
  return assemble(tokens, changes);
}

function blobLiteral(token: Token): string {
  const digits = token.text.slice(2);
  if (digits.length % 2 === 1) throw new DialectError(`varbinary literal ${token.text} has an odd number of hex digits`, token.start);
  return `'${digits.replace(/../g, (pair) => `\\x${pair}`)}'::BLOB`;
}

/** The index of the next (step 1) or previous (step -1) token that is not space or a comment. */
function significant(tokens: Token[], from: number, step: 1 | -1): number {
  let i = from + step;
  while (tokens[i] && (tokens[i]!.kind === 'space' || tokens[i]!.kind === 'comment')) i += step;
  return i;
}

// `timestamp(3)`: DuckDB's timestamps keep microseconds and take no precision.
function dropPrecision(tokens: Token[], open: number, replaced: Map<number, string>): void {
  const digits = significant(tokens, open, 1);
  const close = significant(tokens, digits, 1);
  if (tokens[digits]?.kind !== 'number' || tokens[close]?.text !== ')') return;
  for (let i = open; i <= close; i++) replaced.set(i, '');
}

/** The one significant token between `from` and `to` (exclusive), if there is exactly one. */
function onlyToken(tokens: Token[], from: number, to: number): Token | null {
  const first = significant(tokens, from, 1);
  return first < to && significant(tokens, first, 1) >= to ? tokens[first]! : null;
}

function rewritePattern(
  tokens: Token[],
  name: number,
  args: [number, number][],
  { convert, duckdb }: (typeof PATTERNS)[string],
  replaced: Map<number, string>,
): void {
  const function_ = tokens[name]!.text.toLowerCase();
  const last = args[1];
  const only = last ? onlyToken(tokens, last[0] - 1, last[1]) : null;
  const literal = only?.kind === 'string' && only.text.startsWith("'") ? only : null;
  if (args.length !== 2 || literal === null) {
    throw new DialectError(`\`${function_}\` needs its pattern written as a text literal offline`, tokens[name]!.start);
  }
  let converted: string;
  try {
    converted = convert(literal.text.slice(1, -1).replace(/''/g, "'"));
  } catch (error) {
    if (error instanceof PatternError) throw new DialectError(error.message, literal.start);
    throw error;
  }
  replaced.set(name, duckdb);
  replaced.set(significant(tokens, last![0] - 1, 1), quoteLiteral(converted));
}

function hasModifiers(tokens: Token[], open: number, group: Group): boolean {
  const first = tokens[significant(tokens, open, 1)]?.text.toLowerCase();
  const after = tokens[significant(tokens, group.close, 1)]?.text.toLowerCase();
  return first === 'distinct' || first === 'all' || group.order !== null || after === 'filter' || after === 'over';
}

/** `function(` and `)` around a call's first argument (after DISTINCT or ALL, before ORDER BY). */
function wrapFirstArgument(tokens: Token[], open: number, group: Group, function_: string, changes: Changes): void {
  const to = Math.min(group.commas[0] ?? group.close, group.order ?? group.close);
  let first = significant(tokens, open, 1);
  const word = tokens[first]?.kind === 'word' ? tokens[first]!.text.toLowerCase() : '';
  if (word === 'distinct' || word === 'all') first = significant(tokens, first, 1);
  const end = significant(tokens, to, -1);
  if (first >= to || end < first) return;
  changes.before.set(first, `${function_}(`);
  changes.after.set(end, ')');
}

function assemble(tokens: Token[], { replaced, before, after }: Changes): Rewritten {
  if (replaced.size === 0 && before.size === 0) return { sql: tokens.map((t) => t.text).join(''), originalOffset: (offset) => offset };
  const pieces: Piece[] = [];
  let sql = '';
  tokens.forEach((token, i) => {
    const text = replaced.get(i);
    const same = text === undefined && !before.has(i) && !after.has(i);
    pieces.push({ at: sql.length, from: token.start, same });
    sql += (before.get(i) ?? '') + (text ?? token.text) + (after.get(i) ?? '');
  });
  return {
    sql,
    originalOffset(offset) {
      let low = 0;
      let high = pieces.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (pieces[middle]!.at <= offset) low = middle;
        else high = middle - 1;
      }
      const piece = pieces[low];
      if (!piece) return offset;
      return piece.same ? piece.from + (offset - piece.at) : piece.from;
    },
  };
}
