import type { ParameterValues, QueryParameter } from '$contract/index.ts';
import { fieldValueOf, isTyped, problemOf } from './parameters.ts';

// A parameter set picked: its values checked against the query's parameters as they are now,
// which may have changed since the set was saved.

export interface PickedSet {
  /** The values that fit the query's fields, to put in them. */
  values: ParameterValues;
  /** What could not be used, in words: a parameter gone, a value its type refuses. */
  problems: string[];
}

export function pickSet(fields: QueryParameter[], setValues: ParameterValues): PickedSet {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const values: ParameterValues = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(setValues)) {
    const field = byKey.get(key);
    if (!field) {
      problems.push(`“${key}” is no longer a parameter of this query: its value ${JSON.stringify(value)} was left out.`);
      continue;
    }
    const problem = problemOf(field, fieldValueOf(field, value));
    const options = field.enumOptions ?? [];
    const unknown = field.type === 'enum' && !isTyped(field) ? [value].flat().filter((choice) => !options.includes(choice)) : [];
    if (problem) problems.push(`${key}: ${problem} The set’s value ${JSON.stringify(value)} was left out.`);
    else if (unknown.length > 0)
      problems.push(`${key}: ${unknown.map((c) => `“${c}”`).join(', ')} is no longer a choice; the value was left out.`);
    else values[key] = value;
  }
  return { values, problems };
}
