import { shell } from 'electron';

// The one door from the app to the outside world. Anything else (file:, javascript:,
// custom handlers, plain http) could run or leak something on the user's machine.
const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(['https:']);

/** Opens `url` in the user's browser if it is an https link; returns whether it did. */
export function openExternalSafely(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!ALLOWED_PROTOCOLS.has(parsed.protocol) || parsed.username !== '' || parsed.password !== '') return false;
  shell.openExternal(parsed.href).catch(() => {
    // The OS has no handler or refused; nothing in the app depends on it.
  });
  return true;
}
