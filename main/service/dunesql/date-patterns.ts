// DuneSQL formats dates with two pattern languages: MySQL's (`date_format`) and Java's
// (`format_datetime`). DuckDB's strftime takes C's. A pattern is turned into C's once, where the
// query gives it as a literal; a specifier with no equivalent is refused, naming it.

export class PatternError extends Error {}

// MySQL specifiers (Trino's list) and their strftime spelling.
const MYSQL: Record<string, string> = {
  a: '%a',
  b: '%b',
  c: '%-m',
  d: '%d',
  e: '%-d',
  f: '%f',
  H: '%H',
  h: '%I',
  I: '%I',
  i: '%M',
  j: '%j',
  k: '%-H',
  l: '%-I',
  M: '%B',
  m: '%m',
  p: '%p',
  r: '%I:%M:%S %p',
  S: '%S',
  s: '%S',
  T: '%H:%M:%S',
  U: '%U',
  v: '%V',
  W: '%A',
  w: '%w',
  Y: '%Y',
  y: '%y',
  '%': '%%',
};

/** A MySQL date pattern (`%Y-%m-%d %H:%i`) as a strftime one. */
export function mysqlPattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch !== '%') {
      out += ch;
      continue;
    }
    const spec = pattern[++i];
    const mapped = spec === undefined ? undefined : MYSQL[spec];
    if (mapped === undefined) throw new PatternError(`the date pattern's %${spec ?? ''} is not available offline`);
    out += mapped;
  }
  return out;
}

// Java (Joda, as Trino reads them) letters by how many times they repeat: Joda's Y is the year
// of the era and x the week-based year.
const JAVA: Record<string, Record<number, string>> = {
  y: { 1: '%Y', 2: '%y', 4: '%Y' },
  Y: { 1: '%Y', 2: '%y', 4: '%Y' },
  x: { 1: '%G', 4: '%G' },
  w: { 1: '%-V', 2: '%V' },
  M: { 1: '%-m', 2: '%m', 3: '%b', 4: '%B' },
  d: { 1: '%-d', 2: '%d' },
  D: { 1: '%-j', 3: '%j' },
  H: { 1: '%-H', 2: '%H' },
  h: { 1: '%-I', 2: '%I' },
  m: { 1: '%-M', 2: '%M' },
  s: { 1: '%-S', 2: '%S' },
  S: { 3: '%g', 6: '%f', 9: '%n' },
  a: { 1: '%p' },
  E: { 1: '%a', 2: '%a', 3: '%a', 4: '%A' },
  Z: { 1: '%z', 2: '%z' },
  z: { 1: '%Z', 2: '%Z', 3: '%Z', 4: '%Z' },
};

/** A Java date pattern (`yyyy-MM-dd HH:mm`) as a strftime one; text in quotes stays as it is. */
export function javaPattern(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === "'") {
      const close = pattern.indexOf("'", i + 1);
      const text = close < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, close);
      out += text === '' ? "'" : text.replace(/%/g, '%%');
      i = close < 0 ? pattern.length : close + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      let count = 1;
      while (pattern[i + count] === ch) count++;
      const mapped = JAVA[ch]?.[count];
      if (mapped === undefined) throw new PatternError(`the date pattern's ${ch.repeat(count)} is not available offline`);
      out += mapped;
      i += count;
    } else {
      out += ch === '%' ? '%%' : ch;
      i++;
    }
  }
  return out;
}
