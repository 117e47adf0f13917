import { CONTENT_SECURITY_POLICY } from '../core/hosting/renderer-files.ts';

// Headers on every response of the browser host. The CSP mirrors the Electron window's: the page
// may load and talk to its own origin only. AG Grid injects its styles at runtime, hence the
// inline styles.

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
