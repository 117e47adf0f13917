import type { ParameterValues } from '$contract/index.ts';

/** The values a run was given, on one line: "chain = base · tokens = a, b". */
export function parameterText(values: ParameterValues): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} = ${Array.isArray(value) ? value.join(', ') : value}`)
    .join(' · ');
}
