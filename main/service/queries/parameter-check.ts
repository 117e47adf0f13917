import { NUMBER } from '../../common/parameters.ts';
import type { ParameterDefinition } from './query-store.ts';

// What a typed parameter's value may be before it goes into the SQL as text. The values an
// execution is given and the defaults a query keeps follow this one rule, so a default that
// was accepted always runs.

const DATETIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const shown = (text: string) => `'${text.slice(0, 100)}'`;

/**
 * What is wrong with a value for the parameter, in words that follow its name; null when it may go
 * into the SQL. A number is a number, a datetime a date-time, an enum one of its options unless it
 * allows free-form values: each of them for a multi-select, as a list or comma-joined (spaces after
 * the commas allowed).
 */
export function valueProblem(definition: ParameterDefinition, value: string | string[]): string | null {
  const text = Array.isArray(value) ? value.join(',') : value;
  if (definition.type === 'number' && !NUMBER.test(text.trim())) return `must be a number, got ${shown(text)}`;
  if (definition.type === 'datetime' && !DATETIME.test(text.trim())) {
    return `must be a date-time such as 2024-01-31 12:00:00, got ${shown(text)}`;
  }
  if (definition.type !== 'enum') return null;
  const multiselect = definition.isMultiselect === true;
  if (Array.isArray(value) && !multiselect) return 'takes one of its options, not a list: it is not a multi-select';
  // a free-form list offers its options but takes any value typed in their place
  const options = definition.isFreeformAllowed === true ? [] : (definition.enumOptions ?? []);
  if (options.length === 0) return null;
  const chosen = Array.isArray(value) ? value : multiselect ? value.split(',').map((v) => v.trim()) : [value];
  const outside = chosen.find((v) => !options.includes(v));
  return outside === undefined ? null : `must be one of its options (${options.join(', ')}), got ${shown(outside)}`;
}
