import type { Api } from './bridge.ts';
import { errorLine } from './error-words.ts';

/**
 * Opens an https link in the system's browser: the desktop host hands it over; the browser host's
 * page is that browser, so it opens a tab, without giving the page a handle on it. Answers a
 * problem to show, or null.
 */
export async function openLink(api: Api, url: string): Promise<string | null> {
  const answer = await api.invoke('app:openUrl', { url });
  if (!answer.ok) return errorLine(answer.error, 'linkOpen');
  if (!answer.data.opened) window.open(url, '_blank', 'noopener,noreferrer');
  return null;
}
