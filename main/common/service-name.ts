// A service's name becomes its key header (`X-<name>-API-KEY`) and its catalog in SQL. The service
// checks it when it starts, the contract when an account is saved and the account form as it is
// typed: one rule, so every name the app accepts is one a service can have, and the reverse.

/** Letters, digits and underscores, starting with a letter; at most 40 of them. */
export const SERVICE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** The rule in words, for the messages that refuse a name. */
export const SERVICE_NAME_RULE = 'at most 40 letters, digits and underscores, starting with a letter';

export function isServiceName(text: string): boolean {
  return SERVICE_NAME.test(text);
}
