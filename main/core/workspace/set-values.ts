import { placeholderNames, problemOf } from '../../common/parameters.ts';
import { fail, type Failure, type ParameterValues, type QueryDetail } from '../../contract/index.ts';
import type { FieldProblem } from '../ipc/field-problems.ts';

/**
 * A parameter set's values checked against the query as last read from the service, by the rules
 * its form checks them by: a value for no parameter of the query (declared, or a `{{name}}` of
 * its SQL, taken as text) or one its type refuses is refused, field by field. Null when they fit.
 */
export function setValuesRefusal(query: QueryDetail, values: ParameterValues): Failure | null {
  const types = new Map([
    ...placeholderNames(query.sql).map((key) => [key, 'text'] as const),
    ...query.parameters.map((p) => [p.key, p.type] as const),
  ]);
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(values)) {
    const type = types.get(key);
    const problem = type === undefined ? `“${key}” is not a parameter of query #${query.id}.` : problemOf({ type }, value);
    if (problem) problems.push({ field: `values.${key}`, message: problem });
  }
  if (problems.length === 0) return null;
  return fail('invalid_request', problems.map((p) => `${p.field}: ${p.message}`).join(' '), problems);
}
