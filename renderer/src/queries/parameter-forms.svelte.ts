import type { ParameterValues, QueryDetail, QueryParameter } from '$contract/index.ts';
import { sameParameterValues } from '$contract/parameter-values.ts';
import { fieldsOf, fieldValueOf, initialValue, problemOf, wireValues, type FieldValue } from './parameters.ts';

/** The values typed for one query's parameters. */
export class ParameterForm {
  readonly fields: QueryParameter[];
  values = $state<Record<string, FieldValue>>({});
  problems = $derived.by(() => {
    const problems: Record<string, string> = {};
    for (const field of this.fields) {
      const problem = problemOf(field, this.values[field.key]);
      if (problem) problems[field.key] = problem;
    }
    return problems;
  });
  isValid = $derived(Object.keys(this.problems).length === 0);

  /** The values of the query's defaults, as sent. */
  readonly defaults: ParameterValues;
  /** The values as they would be sent now (a field's problem aside). */
  current = $derived.by(() => wireValues(this.fields, this.values));
  isDefault = $derived.by(() => sameParameterValues(this.current, this.defaults));

  constructor(fields: QueryParameter[], previous?: ParameterForm, restored?: ParameterValues | null) {
    this.fields = fields;
    const values: Record<string, FieldValue> = {};
    for (const field of fields) {
      // What the user typed survives a save that keeps the field as it was; a field left at its
      // default takes the default saved.
      const kept = previous?.fields.find((p) => p.key === field.key && p.type === field.type);
      const draft = restored?.[field.key];
      if (kept) values[field.key] = changedFrom(kept, previous!.values[field.key]) ?? initialValue(field);
      else values[field.key] = draft === undefined ? initialValue(field) : fieldValueOf(field, draft);
    }
    this.values = values;
    this.defaults = wireValues(fields, Object.fromEntries(fields.map((field) => [field.key, initialValue(field)])));
  }

  /** The values of an earlier run (its fields that still exist). */
  setValues(wire: ParameterValues): void {
    const values = { ...this.values };
    for (const field of this.fields) {
      const value = wire[field.key];
      if (value !== undefined) values[field.key] = fieldValueOf(field, value);
    }
    this.values = values;
  }

  /** Every field back to the query's default. */
  reset(): void {
    this.values = Object.fromEntries(this.fields.map((field) => [field.key, initialValue(field)]));
  }

  /** The values to run with, or null while one is not valid (its problem shows beside it). */
  take(): ParameterValues | null {
    return this.isValid ? wireValues(this.fields, this.values) : null;
  }
}

/** A field's value when it is not the one the field started with; undefined otherwise. */
function changedFrom(field: QueryParameter, value: FieldValue | undefined): FieldValue | undefined {
  return value !== undefined && JSON.stringify(value) !== JSON.stringify(initialValue(field)) ? value : undefined;
}

function signature(fields: QueryParameter[]): string {
  return JSON.stringify(fields);
}

/** One form per query, kept while the app runs, so values stay when the user comes back. */
export class ParameterForms {
  readonly #forms = new Map<string, { signature: string; form: ParameterForm }>();

  /** `restored`: values kept in the query's draft, used when its form is first made. */
  formFor(accountId: string, query: QueryDetail, restored?: ParameterValues | null): ParameterForm {
    const key = `${accountId}\u0000${query.id}`;
    const fields = fieldsOf(query.parameters, query.sql);
    const known = this.#forms.get(key);
    if (known && known.signature === signature(fields)) return known.form;
    const form = new ParameterForm(fields, known?.form, restored);
    this.#forms.set(key, { signature: signature(fields), form });
    return form;
  }
}
