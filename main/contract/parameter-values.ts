import type { ParameterValues } from './models.ts';

/** Equal parameter values, whatever the order of the keys or of a multi-select's choices. */
export function sameParameterValues(a: ParameterValues, b: ParameterValues): boolean {
  const normal = (values: ParameterValues) =>
    JSON.stringify(
      Object.keys(values)
        .sort()
        .map((key) => {
          const value = values[key]!;
          return [key, Array.isArray(value) ? [...value].sort() : value];
        }),
    );
  return normal(a) === normal(b);
}
