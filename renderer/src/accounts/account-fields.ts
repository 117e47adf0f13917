// The checks main applies to an account's fields, from the same shared rules, so a mistake is
// shown by its field before anything is sent (the contract's schemas stay out of the renderer bundle).

import { readBaseUrl } from '../../../main/common/base-url.ts';
import { isServiceName } from '../../../main/common/service-name.ts';

export { DEFAULT_BASE_URL, DEFAULT_SERVICE_NAME } from '$contract/defaults.ts';

export interface AccountFields {
  label: string;
  baseUrl: string;
  serviceName: string;
  kind: 'user' | 'team';
  apiKey: string;
}

export type FieldProblems = Partial<Record<keyof AccountFields, string>>;

export function accountProblems(fields: AccountFields, keyRequired: boolean): FieldProblems {
  const problems: FieldProblems = {};
  if (!fields.label.trim()) problems.label = 'Give the account a name.';
  const base = readBaseUrl(fields.baseUrl, 'The address');
  if (!base.ok) problems.baseUrl = `${base.problem}.`;
  if (!isServiceName(fields.serviceName.trim())) {
    problems.serviceName = 'Use at most 40 letters, digits and underscores, starting with a letter: it names the X-…-API-KEY header.';
  }
  if (keyRequired && !fields.apiKey.trim()) problems.apiKey = 'Paste the API key.';
  return problems;
}
