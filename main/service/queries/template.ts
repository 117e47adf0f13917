import { PLACEHOLDER, placeholderNames } from '../../common/parameters.ts';
import { valueProblem } from './parameter-check.ts';
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

function checked(definition: ParameterDefinition, given: unknown, text: string): string {
  const problem = valueProblem(definition, Array.isArray(given) ? given.map(String) : text);
  if (problem) throw new ParameterError(`parameter ${definition.key} ${problem}`);
  return text;
}

/** A default stored before defaults were checked may not fit its type: it fails as a value would. */
function checkedDefault(definition: ParameterDefinition): string {
  const problem = valueProblem(definition, definition.value);
  if (problem) {
    throw new ParameterError(`the default of parameter ${definition.key} ${problem}: give the parameter a value, or correct its default`);
  }
  return definition.value;
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
      values.set(name, definition ? checked(definition, given[name], text) : text);
    } else if (definition) values.set(name, checkedDefault(definition));
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
