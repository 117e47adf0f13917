import { COMPARISONS } from './ast.ts';
import { FilterLanguageError, type LanguagePart } from './errors.ts';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'operator' | '(' | ')' | ',' | 'end';

export interface Token {
  kind: TokenKind;
  /** A word as written, a quoted name or a string without quotes, a number or operator as written. */
  text: string;
  position: number;
}

const WORD = /[\p{L}_][\p{L}\p{N}_]*/uy;
// a varbinary value is written bare, as in DuneSQL: `holder = 0xd8da6bf2…`
const NUMBER = /0[xX][0-9a-fA-F]+\b|-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/y;
// a minus before a digit starts a number, as in `amount > -5`
const OPERATOR = /[=!<>~^|&%*+/]+|-(?!\d)/y;
const SPACE = /\s+/y;

function readQuoted(text: string, start: number, quote: string, part: LanguagePart): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= text.length) {
      const what = quote === "'" ? 'string' : 'quoted column name';
      throw new FilterLanguageError(part, start + 1, `unterminated ${what} (no closing ${quote})`);
    }
    if (text[i] === quote) {
      if (text[i + 1] === quote) {
        value += quote;
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    value += text[i];
    i++;
  }
}

function sticky(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

/** Tokens of a filters or sort text; `'…'` is a string, `"…"` a column name, doubled quotes escape. */
export function tokenize(text: string, part: LanguagePart): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const space = sticky(SPACE, text, i);
    if (space) {
      i += space.length;
      continue;
    }
    const position = i + 1;
    const char = text[i]!;
    if (char === "'" || char === '"') {
      const { value, end } = readQuoted(text, i, char, part);
      tokens.push({ kind: char === "'" ? 'string' : 'quoted', text: value, position });
      i = end;
    } else if (char === '(' || char === ')' || char === ',') {
      tokens.push({ kind: char, text: char, position });
      i++;
    } else if (sticky(NUMBER, text, i)) {
      const number = sticky(NUMBER, text, i)!;
      tokens.push({ kind: 'number', text: number, position });
      i += number.length;
    } else if (sticky(WORD, text, i)) {
      const word = sticky(WORD, text, i)!;
      tokens.push({ kind: 'word', text: word, position });
      i += word.length;
    } else if (sticky(OPERATOR, text, i)) {
      const operator = sticky(OPERATOR, text, i)!;
      if (!(COMPARISONS as readonly string[]).includes(operator)) {
        throw new FilterLanguageError(part, position, `unknown operator '${operator}' (use ${COMPARISONS.join(' ')}, IN, LIKE or IS NULL)`);
      }
      tokens.push({ kind: 'operator', text: operator, position });
      i += operator.length;
    } else {
      throw new FilterLanguageError(part, position, `unexpected character '${char}'`);
    }
  }
  tokens.push({ kind: 'end', text: '', position: text.length + 1 });
  return tokens;
}
