/** The only form of a key that leaves core: a masked suffix such as "••••a1b2". */
export function keyHint(apiKey: string | null): string {
  if (apiKey === null || apiKey === '') return '';
  // A short key would be revealed whole by its suffix, so it shows none.
  return apiKey.length >= 12 ? `••••${apiKey.slice(-4)}` : '••••';
}
