const QUOTE = 0x22;
const LINE_BREAK = 0x0a;

/**
 * Where each row of CSV text starts, and last, the text's length. A quoted value may hold line
 * breaks, so a line break ends a row only outside quotes (a doubled quote inside them is two
 * quotes in a row, which leave and enter again: the count comes out the same).
 */
export function csvRowStarts(body: Buffer): Uint32Array {
  const starts = [0];
  let at = 0;
  // the next quote, looked for again only once passed: text without quotes is searched once
  let quote = body.indexOf(QUOTE);
  while (at < body.length) {
    const lineBreak = body.indexOf(LINE_BREAK, at);
    if (lineBreak === -1) break;
    if (quote !== -1 && quote < at) quote = body.indexOf(QUOTE, at);
    if (quote !== -1 && quote < lineBreak) {
      // jump past the closing quote, and look for the row's end from there
      const closing = body.indexOf(QUOTE, quote + 1);
      if (closing === -1) throw new Error(`CSV text has a quote at byte ${quote} that is never closed`);
      at = closing + 1;
      continue;
    }
    starts.push(lineBreak + 1);
    at = lineBreak + 1;
  }
  if (starts[starts.length - 1] !== body.length)
    throw new Error(`CSV text ends without a line break after byte ${starts[starts.length - 1]}`);
  return Uint32Array.from(starts);
}
