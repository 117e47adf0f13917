import type { ColumnRef, Comparison, Filter, Literal, SortTerm } from './ast.ts';
import { FilterLanguageError, type LanguagePart } from './errors.ts';
import { tokenize, type Token } from './lexer.ts';

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'like', 'is', 'null', 'asc', 'desc']);
/**
 * Parentheses inside parentheses, at most: far past what a person writes, and far below what DuckDB
 * parses (it refuses an expression over a thousand levels deep, as a server error) or this parser's
 * own recursion holds.
 */
export const MAX_FILTER_NESTING = 64;

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the text';
  if (token.kind === 'string') return `'${token.text}'`;
  if (token.kind === 'quoted') return `"${token.text}"`;
  return `'${token.text}'`;
}

/** A cursor over the tokens of one text, with the checks every grammar here shares. */
class Tokens {
  readonly part: LanguagePart;
  #tokens: Token[];
  #at = 0;
  /** How many parentheses are open where the parser is. */
  depth = 0;

  constructor(text: string, part: LanguagePart) {
    this.part = part;
    this.#tokens = tokenize(text, part);
  }

  get peek(): Token {
    return this.#tokens[this.#at]!;
  }

  next(): Token {
    const token = this.peek;
    if (token.kind !== 'end') this.#at++;
    return token;
  }

  isKeyword(word: string): boolean {
    return this.peek.kind === 'word' && this.peek.text.toLowerCase() === word;
  }

  takeKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.#at++;
    return true;
  }

  fail(token: Token, problem: string): never {
    throw new FilterLanguageError(this.part, token.position, problem);
  }

  column(): ColumnRef {
    const token = this.next();
    if (token.kind === 'quoted') return { name: token.text, position: token.position };
    if (token.kind === 'word' && !KEYWORDS.has(token.text.toLowerCase())) return { name: token.text, position: token.position };
    if (token.kind === 'word' && token.text.toLowerCase() === 'not') this.refuseNot(token);
    if (token.kind === ')') this.fail(token, "unbalanced parenthesis: ')' has no matching '('");
    return this.fail(token, `expected a column name, found ${describe(token)}`);
  }

  refuseNot(token: Token): never {
    return this.fail(token, 'NOT is not supported (neither NOT IN, NOT LIKE nor NOT before a condition)');
  }

  end(): void {
    const token = this.peek;
    if (token.kind === ')') this.fail(token, "unbalanced parenthesis: ')' has no matching '('");
    if (token.kind !== 'end') this.fail(token, `unexpected ${describe(token)}`);
  }
}

function literal(tokens: Tokens): Literal {
  const token = tokens.next();
  if (token.kind === 'string' || token.kind === 'number') {
    return { kind: token.kind, text: token.text, position: token.position };
  }
  return tokens.fail(token, `expected a value (a 'quoted string' or a number), found ${describe(token)}; expressions are not allowed`);
}

function criterion(tokens: Tokens): Filter {
  const column = tokens.column();
  const token = tokens.peek;
  if (token.kind === 'operator') {
    tokens.next();
    return { kind: 'compare', column, operator: token.text as Comparison, value: literal(tokens) };
  }
  if (tokens.isKeyword('not')) tokens.refuseNot(token);
  if (tokens.takeKeyword('like')) {
    const pattern = literal(tokens);
    if (pattern.kind !== 'string') tokens.fail(token, 'LIKE needs a quoted string pattern');
    return { kind: 'like', column, pattern };
  }
  if (tokens.takeKeyword('in')) {
    const open = tokens.next();
    if (open.kind !== '(') tokens.fail(open, `IN needs a list in parentheses, found ${describe(open)}`);
    const values = [literal(tokens)];
    while (tokens.peek.kind === ',') {
      tokens.next();
      values.push(literal(tokens));
    }
    const close = tokens.next();
    if (close.kind !== ')') {
      if (close.kind === 'end') tokens.fail(open, "unbalanced parenthesis: '(' is never closed");
      tokens.fail(close, `expected ',' or ')' in the IN list, found ${describe(close)}`);
    }
    return { kind: 'in', column, values };
  }
  if (tokens.takeKeyword('is')) {
    const negated = tokens.takeKeyword('not');
    const nullWord = tokens.next();
    if (!(nullWord.kind === 'word' && nullWord.text.toLowerCase() === 'null')) {
      tokens.fail(nullWord, `expected NULL after IS${negated ? ' NOT' : ''}, found ${describe(nullWord)}`);
    }
    return { kind: 'is-null', column, negated };
  }
  return tokens.fail(
    token,
    `expected an operator (= != <> < <= > >=, IN, LIKE or IS NULL) after column "${column.name}", found ${describe(token)}`,
  );
}

function primary(tokens: Tokens): Filter {
  const token = tokens.peek;
  if (token.kind === '(') {
    tokens.next();
    if (++tokens.depth > MAX_FILTER_NESTING) tokens.fail(token, `parentheses nest deeper than ${MAX_FILTER_NESTING} levels`);
    const inner = disjunction(tokens);
    tokens.depth--;
    const close = tokens.next();
    if (close.kind !== ')') {
      if (close.kind === 'end') tokens.fail(token, "unbalanced parenthesis: '(' is never closed");
      tokens.fail(close, `expected AND, OR or ')', found ${describe(close)}`);
    }
    return inner;
  }
  if (tokens.isKeyword('not')) tokens.refuseNot(token);
  return criterion(tokens);
}

function conjunction(tokens: Tokens): Filter {
  let left = primary(tokens);
  while (tokens.takeKeyword('and')) left = { kind: 'and', left, right: primary(tokens) };
  return left;
}

function disjunction(tokens: Tokens): Filter {
  let left = conjunction(tokens);
  while (tokens.takeKeyword('or')) left = { kind: 'or', left, right: conjunction(tokens) };
  return left;
}

/** `filters`: criteria `column op value`, IN lists, LIKE, IS [NOT] NULL, joined by AND / OR and parentheses. */
export function parseFilters(text: string): Filter {
  const tokens = new Tokens(text, 'filters');
  const filter = disjunction(tokens);
  tokens.end();
  return filter;
}

/** `sort_by`: `column [asc|desc]`, comma-separated; ascending when the direction is left out. */
export function parseSort(text: string): SortTerm[] {
  const tokens = new Tokens(text, 'sort_by');
  const terms: SortTerm[] = [];
  for (;;) {
    const column = tokens.column();
    let direction: SortTerm['direction'] = 'asc';
    if (tokens.takeKeyword('desc')) direction = 'desc';
    else tokens.takeKeyword('asc');
    terms.push({ column, direction });
    if (tokens.peek.kind !== ',') break;
    tokens.next();
  }
  tokens.end();
  return terms;
}

/**
 * `columns`: names separated by commas. A name is taken as written (clients send names with
 * dashes or dots unquoted), or in double quotes when it holds a comma or a quote.
 */
export function parseColumns(text: string): ColumnRef[] {
  const refs: ColumnRef[] = [];
  let i = 0;
  for (;;) {
    const position = i + 1;
    let name: string;
    if (text[i] === '"') {
      let end = i + 1;
      name = '';
      for (;;) {
        if (end >= text.length) throw new FilterLanguageError('columns', position, 'unterminated quoted column name (no closing ")');
        if (text[end] === '"' && text[end + 1] === '"') {
          name += '"';
          end += 2;
        } else if (text[end] === '"') break;
        else name += text[end++];
      }
      i = end + 1;
      if (i < text.length && text[i] !== ',') {
        throw new FilterLanguageError('columns', i + 1, `expected ',' after a quoted column name, found '${text[i]}'`);
      }
    } else {
      const comma = text.indexOf(',', i);
      const end = comma < 0 ? text.length : comma;
      name = text.slice(i, end);
      i = end;
    }
    if (name === '') throw new FilterLanguageError('columns', position, 'empty column name');
    refs.push({ name, position });
    if (i >= text.length) return refs;
    i++; // the comma
  }
}
