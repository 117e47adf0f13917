// Words from elsewhere (a library's error, the keychain's) set inside a sentence of ours.

/** `detail` without its closing period or space, to go before a period or parenthesis of ours. */
export function clause(detail: string): string {
  return detail.trim().replace(/[.\s]+$/, '');
}

/** The message of whatever was thrown. */
export function thrownText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
