import type { ParameterValues, QueryParameter } from '$contract/index.ts';
import { DATETIME, placeholderNames } from '../../../main/common/parameters.ts';

// the form's fields are checked by the rule main checks a parameter set's values by
export { problemOf } from '../../../main/common/parameters.ts';

// The parameter form's rules: what each type of field holds, what is valid, and what is sent.

export type FieldValue = string | string[];

/**
 * The query's parameter definitions, then any `{{name}}` its SQL uses without one (the service
 * takes those too, as text).
 */
export function fieldsOf(definitions: QueryParameter[], sql: string): QueryParameter[] {
  const declared = new Set(definitions.map((p) => p.key));
  const undeclared = placeholderNames(sql).filter((key) => !declared.has(key));
  return [...definitions, ...undeclared.map((key): QueryParameter => ({ key, type: 'text', value: '' }))];
}

export function isMulti(field: QueryParameter): boolean {
  return field.type === 'enum' && field.isMultiselect === true;
}

/**
 * An enum whose value is typed, not picked from a list: its options come from another query's
 * result, which the app does not read (Dune's `enumFromResults`), or it takes values besides its
 * options (`isFreeformAllowed`). Its options, when it has some, are offered as suggestions; a
 * multi-select one takes values separated by commas.
 */
export function isTyped(field: QueryParameter): boolean {
  return field.type === 'enum' && (field.isFreeformAllowed === true || field.enumFromResults !== undefined);
}

/** The values of a typed multi-select field's text, as sent: each between commas, trimmed. */
function typedChoices(text: string): string[] {
  return text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The value a `datetime-local` input takes: `YYYY-MM-DDTHH:MM:SS`, or empty when the text is no date. */
export function toPickerValue(text: string): string {
  const match = DATETIME.exec(text.trim());
  return match ? `${match[1]}T${match[2]}${match[3] ?? ':00'}` : '';
}

/** The service's form of a date-time: `YYYY-MM-DD HH:MM:SS`. */
export function toServiceDatetime(picker: string): string {
  const match = DATETIME.exec(picker);
  return match ? `${match[1]} ${match[2]}${match[3] ?? ':00'}` : picker;
}

export function initialValue(field: QueryParameter): FieldValue {
  if (field.type === 'datetime') return toPickerValue(field.value);
  if (isTyped(field)) return field.value;
  if (isMulti(field)) {
    const options = field.enumOptions ?? [];
    return field.value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => options.includes(v));
  }
  return field.value;
}

export function wireValues(fields: QueryParameter[], values: Record<string, FieldValue>): ParameterValues {
  const wire: ParameterValues = {};
  for (const field of fields) {
    const value = values[field.key] ?? initialValue(field);
    if (Array.isArray(value)) wire[field.key] = value;
    else if (isTyped(field) && isMulti(field)) wire[field.key] = typedChoices(value);
    else if (field.type === 'datetime') wire[field.key] = toServiceDatetime(value);
    else if (field.type === 'number') wire[field.key] = value.trim();
    else wire[field.key] = value;
  }
  return wire;
}

/** A value as sent (or kept in a draft or a run) back into the form's field. */
export function fieldValueOf(field: QueryParameter, wire: string | string[]): FieldValue {
  if (isTyped(field)) return Array.isArray(wire) ? wire.join(', ') : wire;
  if (isMulti(field)) return Array.isArray(wire) ? wire : wire.split(',').map((v) => v.trim());
  const text = Array.isArray(wire) ? wire.join(',') : wire;
  return field.type === 'datetime' ? toPickerValue(text) : text;
}
