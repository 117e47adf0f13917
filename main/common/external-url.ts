// The only links the app hands to the system's browser: https, without a user name or password
// in them. Anything else (file:, javascript:, custom handlers, plain http) could run or leak
// something on the user's machine. Both hosts and the contract check links with this one rule.

/** The link as the browser should get it, or null when it is not one the app opens. */
export function externalUrl(text: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}
