import { quoteIdentifier } from '../sql-quote.ts';
import { KINDS, own } from './kinds.ts';

// A column type's name, as the hosted service (DuneSQL, Trino's spelling: `array(row(a varchar))`,
// `timestamp(3) with time zone`) or the embedded one (DuckDB's: `STRUCT("a" VARCHAR)[]`,
// `TIMESTAMP WITH TIME ZONE`) writes it, parsed into one small tree. Names with an exact twin in
// DuneSQL take Dune's name; DuckDB's own (utinyint, hugeint, bignum, ...) keep theirs.

export interface DuneType {
  /** Lower-case base name: `varchar`, `uint256`, `decimal`, `timestamp`, `array`, `row`, or `unknown`. */
  name: string;
  /** The numbers in parentheses: `decimal(p, s)`, `timestamp(p)`, `varchar(n)`. */
  params: number[];
  /** `array`: its element; `map`: key then value; `row` and `union`: its fields, named or not. */
  fields: DuneField[];
  /** `timestamp(3) with time zone`, `time with time zone`. */
  withTimeZone: boolean;
  /** The name as it was received. */
  source: string;
}

export interface DuneField {
  name: string | null;
  type: DuneType;
}

// Every spelling either engine uses for a type that has one meaning, to the name it is kept under.
const ALIASES: Record<string, string> = {
  bool: 'boolean',
  logical: 'boolean',
  int1: 'tinyint',
  int2: 'smallint',
  short: 'smallint',
  int: 'integer',
  int4: 'integer',
  signed: 'integer',
  int8: 'bigint',
  long: 'bigint',
  int128: 'hugeint',
  uint128: 'uhugeint',
  varint: 'bignum',
  float: 'real',
  float4: 'real',
  float8: 'double',
  'double precision': 'double',
  numeric: 'decimal',
  text: 'varchar',
  string: 'varchar',
  bpchar: 'varchar',
  'character varying': 'varchar',
  character: 'char',
  blob: 'varbinary',
  bytea: 'varbinary',
  binary: 'varbinary',
  datetime: 'timestamp',
  timestamptz: 'timestamp with time zone',
  timetz: 'time with time zone',
  list: 'array',
  struct: 'row',
};

// DuckDB's timestamps of a fixed unit are timestamps of that precision.
const TIMESTAMP_UNITS: Record<string, number> = { timestamp_s: 0, timestamp_ms: 3, timestamp_us: 6, timestamp_ns: 9 };

type TokenKind = 'word' | 'quoted' | 'string' | 'number' | '(' | ')' | ',' | '[' | ']';
interface Token {
  kind: TokenKind;
  text: string;
}

const TOKEN = /\s*(?:([A-Za-z_][A-Za-z0-9_$]*)|"((?:[^"]|"")*)"|'((?:[^']|'')*)'|(\d+)|([()\[\],]))/y;

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(text);
    if (!match) return null;
    if (match[1] !== undefined) tokens.push({ kind: 'word', text: match[1] });
    else if (match[2] !== undefined) tokens.push({ kind: 'quoted', text: match[2].replaceAll('""', '"') });
    else if (match[3] !== undefined) tokens.push({ kind: 'string', text: match[3].replaceAll("''", "'") });
    else if (match[4] !== undefined) tokens.push({ kind: 'number', text: match[4] });
    else tokens.push({ kind: match[5] as TokenKind, text: match[5]! });
  }
  return tokens;
}

class Parser {
  #tokens: Token[];
  #at = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  done(): boolean {
    return this.#at >= this.#tokens.length;
  }

  #peek(offset = 0): Token | undefined {
    return this.#tokens[this.#at + offset];
  }

  #take(kind: TokenKind): Token {
    const token = this.#tokens[this.#at];
    if (token?.kind !== kind) throw new SyntaxError(`expected ${kind}`);
    this.#at++;
    return token;
  }

  #takeIf(kind: TokenKind): boolean {
    if (this.#peek()?.kind !== kind) return false;
    this.#at++;
    return true;
  }

  type(): DuneType {
    let type = this.#base();
    // DuckDB writes lists and arrays after their element: INTEGER[], VARCHAR[3][]
    while (this.#takeIf('[')) {
      this.#takeIf('number');
      this.#take(']');
      type = node('array', { fields: [{ name: null, type }] });
    }
    return type;
  }

  #base(): DuneType {
    const words: string[] = [];
    const params: number[] = [];
    while (this.#peek()?.kind === 'word') {
      words.push(this.#take('word').text.toLowerCase());
      if (this.#peek()?.kind !== '(') continue;
      const head = own(ALIASES, words.join(' ')) ?? words.join(' ');
      if (head === 'array' || head === 'map' || head === 'row' || head === 'union') return this.#nested(head);
      if (head === 'enum') return this.#enum();
      this.#take('(');
      do params.push(Number(this.#take('number').text));
      while (this.#takeIf(','));
      this.#take(')');
    }
    if (words.length === 0) throw new SyntaxError('expected a type name');
    return simple(words.join(' '), params);
  }

  #nested(name: string): DuneType {
    this.#take('(');
    const fields: DuneField[] = [];
    do fields.push(name === 'row' || name === 'union' ? this.#field() : { name: null, type: this.type() });
    while (this.#takeIf(','));
    this.#take(')');
    if ((name === 'array' && fields.length !== 1) || (name === 'map' && fields.length !== 2))
      throw new SyntaxError(`${name} takes ${name === 'map' ? 2 : 1}`);
    return node(name, { fields });
  }

  /** `name type`, `"quoted name" type`, or a bare type (Trino's anonymous row fields). */
  #field(): DuneField {
    const first = this.#peek();
    const second = this.#peek(1);
    const named =
      first?.kind === 'quoted' || (first?.kind === 'word' && second?.kind === 'word' && !isTypeContinuation(first.text, second.text));
    if (!named) return { name: null, type: this.type() };
    this.#at++;
    return { name: first!.text, type: this.type() };
  }

  #enum(): DuneType {
    this.#take('(');
    do this.#take('string');
    while (this.#takeIf(','));
    this.#take(')');
    return node('enum');
  }
}

// Words that go on a type's name rather than start a field's type: `double precision`,
// `timestamp with time zone`, `character varying`, `interval day to second`.
function isTypeContinuation(first: string, second: string): boolean {
  const next = second.toLowerCase();
  return (
    next === 'precision' ||
    next === 'with' ||
    next === 'without' ||
    next === 'varying' ||
    (first.toLowerCase() === 'interval' && next !== 'interval')
  );
}

function node(name: string, parts: Partial<DuneType> = {}): DuneType {
  return { name, params: [], fields: [], withTimeZone: false, source: '', ...parts };
}

function simple(words: string, params: number[]): DuneType {
  let name = own(ALIASES, words) ?? words;
  let withTimeZone = false;
  const zoned = /^(timestamp|time) with time zone$/.exec(name);
  if (zoned) [name, withTimeZone] = [zoned[1]!, true];
  name = name.replace(/^(timestamp|time) without time zone$/, '$1');
  const unit = own(TIMESTAMP_UNITS, name);
  if (unit !== undefined) return node('timestamp', { params: [unit] });
  if (name.startsWith('interval')) name = 'interval';
  const kind = own(KINDS, name);
  if (kind === undefined || kind === 'nested')
    return node('unknown', { source: `${words}${params.length > 0 ? `(${params.join(',')})` : ''}` });
  return node(name, { params, withTimeZone });
}

/** Each part of the tree named as it reads in DuneSQL; the whole as it was received. */
function withSource(type: DuneType, source: string): DuneType {
  const fields = type.fields.map((f) => ({ ...f, type: withSource(f.type, f.type.source || typeName(f.type)) }));
  return { ...type, source, fields };
}

/** The tree of a type name; a name it cannot read is `unknown`, never an error. */
export function parseType(text: string): DuneType {
  const source = text.trim();
  const tokens = tokenize(source);
  if (tokens && tokens.length > 0) {
    try {
      const parser = new Parser(tokens);
      const type = parser.type();
      if (parser.done()) return withSource(type, source);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return node('unknown', { source });
}

const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

/** The type's name as DuneSQL writes it (DuckDB-only names as DuckDB's, in lower case). */
export function typeName(type: DuneType): string {
  const zone = type.withTimeZone ? ' with time zone' : '';
  switch (type.name) {
    case 'array':
      return `array(${typeName(type.fields[0]!.type)})`;
    case 'map':
      return `map(${typeName(type.fields[0]!.type)}, ${typeName(type.fields[1]!.type)})`;
    case 'row':
    case 'union':
      return `${type.name}(${type.fields.map(fieldName).join(', ')})`;
    case 'unknown':
      return type.source;
    default:
      return `${type.name}${type.params.length > 0 ? `(${type.params.join(',')})` : ''}${zone}`;
  }
}

function fieldName(field: DuneField): string {
  if (field.name === null) return typeName(field.type);
  const name = PLAIN_NAME.test(field.name) ? field.name : quoteIdentifier(field.name);
  return `${name} ${typeName(field.type)}`;
}
