// Nothing secret reaches a log file or a bug report: the keys the app holds are replaced wherever
// they appear, and so is anything that looks like a key, token or password by its label, in a
// header, a query string, JSON or a URL's user part, including ones the app never saw.

const MASK = '[redacted]';
/** Shorter values would mask ordinary words; real keys and tokens are far longer. */
const MIN_SECRET_LENGTH = 8;

const LABEL = String.raw`x-[a-z0-9_]+-api-key|api[_-]?key|apikey|access[_-]?token|token|password|passwd|secret|authorization`;
/**
 * Between a label and its value: `:` or `=` (headers, JSON, query strings, also URL-encoded), `=>`
 * (a Headers or Map object as Node prints it), or a comma between quotes (a [name, value] pair).
 */
const BETWEEN = String.raw`(?:["']?\s*(?:=>|[:=]|%3[ad])\s*["']?|["']\s*,\s*["'])`;
const VALUE = String.raw`(?:bearer\s+|basic\s+)?[^\s"'&,;}]+`;

const PATTERNS: Array<[RegExp, string]> = [
  // X-DUNE-API-KEY: abc, "x-dune-api-key":"abc", api_key=abc, token: abc, "password": "abc"
  [new RegExp(`((?:${LABEL})${BETWEEN})${VALUE}`, 'gi'), `$1${MASK}`],
  // a key header as curl and proxies write it, without a colon: X-Dune-API-Key abc
  [new RegExp(String.raw`(\bx-[a-z0-9_]+-api-key\s+)(?!\[redacted\])[^\s"'&,;}]+`, 'gi'), `$1${MASK}`],
  [/\b(bearer|basic)\s+[a-z0-9._~+/-]{8,}=*/gi, `$1 ${MASK}`],
  // https://user:password@host
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, `$1${MASK}@`],
];

export class Redactor {
  readonly #secrets = new Set<string>();

  /** A value to mask wherever it appears (an API key once it is read or entered). */
  add(secret: string | null | undefined): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) this.#secrets.add(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(MASK);
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }
}
