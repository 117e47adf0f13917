import { PLACEHOLDER, placeholderNames } from '../../common/parameters.ts';
import type { ParameterDefinition } from './query-store.ts';

// `{{name}}` placeholders are replaced by the value's text, unquoted: the SQL author writes any
// quotes or casts around them, as on the real service.

export class ParameterError extends Error {}

function valueText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // a multi-select enum arrives as a list and is inserted comma-joined
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(',');
  }
  throw new ParameterError(`invalid value for parameter ${name}: expected a string, a number or a list of strings`);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A typed parameter's value is checked before it goes into the SQL as text: a number is a number,
 * a datetime a datetime, an enum one of its options (each of them, for a multi-select).
 */
function checkTyped(definition: ParameterDefinition, given: unknown, text: string): void {
  const { key, type } = definition;
  if (type === 'number' && !NUMBER.test(text.trim()))
    throw new ParameterError(`parameter ${key} must be a number, got '${text.slice(0, 100)}'`);
  if (type === 'datetime' && !DATETIME.test(text.trim())) {
    throw new ParameterError(`parameter ${key} must be a date-time such as 2024-01-31 12:00:00, got '${text.slice(0, 100)}'`);
  }
  if (type === 'enum' && Array.isArray(given) && definition.isMultiselect !== true) {
    throw new ParameterError(`parameter ${key} takes one of its options, not a list: it is not a multi-select`);
  }
  const options = definition.enumOptions;
  if (type === 'enum' && options && options.length > 0) {
    const chosen = Array.isArray(given) ? given.map(String) : definition.isMultiselect ? text.split(',') : [text];
    const unknown = chosen.filter((value) => !options.includes(value));
    if (unknown.length > 0)
      throw new ParameterError(`parameter ${key} must be one of its options (${options.join(', ')}), got '${unknown[0]!.slice(0, 100)}'`);
  }
}

/**
 * The value of every parameter the SQL uses: the one given, else the query's default.
 * Names the query does not know, and placeholders left without any value, are refused.
 */
export function resolveParameters(sql: string, definitions: ParameterDefinition[], given: Record<string, unknown>): Record<string, string> {
  const used = placeholderNames(sql);
  const known = new Set([...definitions.map((d) => d.key), ...used]);
  const unknown = Object.keys(given).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new ParameterError(`unknown parameters (${unknown.join(', ')})`);

  // a name is any text of the SQL's, `constructor` and `__proto__` included: only own keys count
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const name of used) {
    const definition = definitions.find((d) => d.key === name);
    if (Object.hasOwn(given, name)) {
      const text = valueText(name, given[name]);
      if (definition) checkTyped(definition, given[name], text);
      values.set(name, text);
    } else if (definition) values.set(name, definition.value);
    else missing.push(name);
  }
  if (missing.length > 0) {
    throw new ParameterError(`missing parameters (${missing.join(', ')}): no value was given and the query has no default`);
  }
  return Object.fromEntries(values);
}

export function substitute(sql: string, values: Record<string, string>): string {
  return sql.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}
