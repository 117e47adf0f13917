// When the service asks for a longer wait than the app waits by itself, the service client gives
// up and adds how long to the service's own words; the renderer takes the note off again to say it
// as a sentence of its own. Both sides use this one form.

/** The note the service client adds to a refusal's words: ` (try again in N s)`. */
export function waitNote(ms: number): string {
  return ` (try again in ${secondsText(ms)})`;
}

/** A wait as the app's messages say it: whole seconds, rounded up, at least one (`3 s`). */
export function secondsText(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

const NOTE = /\s*\(try again in (\d+) s\)(\.?)$/;

/** A refusal's words without the note, and the seconds the note gave (null when it had none). */
export function splitWaitNote(message: string): { words: string; seconds: number | null } {
  const note = NOTE.exec(message);
  if (note === null) return { words: message, seconds: null };
  return { words: message.slice(0, note.index) + (note[2] ?? ''), seconds: Number(note[1]) };
}
