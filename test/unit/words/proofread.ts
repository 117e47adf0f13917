// The rules every message the app shows is read against: the tests that render messages (each
// layer's own) check their text here, so a slip of punctuation or a thing said twice fails a test.

/** Text the app writes itself: whole sentences, each said once. Answers the problems found, none when right. */
export function proofread(text: string): string[] {
  const problems: string[] = [];
  const trimmed = text.trim();
  if (trimmed === '') return ['is empty'];
  if (trimmed !== text) problems.push('has space at an end');
  if (!/^[\p{Lu}\p{N}“"'`(]/u.test(trimmed)) problems.push('does not start with a capital');
  if (!/[.?!…)]$|[.?!…][”"’)]$/u.test(trimmed)) problems.push('does not end a sentence');
  for (const [pattern, problem] of SLIPS) if (pattern.test(text)) problems.push(problem);
  const repeated = repeatedSentence(text);
  if (repeated !== null) problems.push(`says twice: ${repeated}`);
  return problems;
}

/** A heading and the text beneath it, read as one: neither may say what the other says. */
export function proofreadTogether(title: string, body: string): string[] {
  const problems = [...proofread(title).map((p) => `title ${p}`), ...proofread(body).map((p) => `body ${p}`)];
  const shared = sharedWords(title, body, 3);
  if (shared !== null) problems.push(`title and body both say "${shared}"`);
  const repeated = repeatedSentence(`${title} ${body}`);
  if (repeated !== null) problems.push(`says twice: ${repeated}`);
  return problems;
}

const SLIPS: [RegExp, string][] = [
  [/[.!?]:/, 'ends a sentence and goes on with a colon'],
  [/(?<!\.)\.\.(?!\.)|[.!?],|,[.!?]|::|;[.;]/, 'doubles its punctuation'],
  [/\s[.,;:!?](?!\w)/, 'has a space before punctuation'],
  [/\S {2,}\S/, 'has a double space'],
  [/\bundefined\b|\bNaN\b|\[object |\bnull\b(?! value| values| cells?\b)/, 'shows a program value'],
  [/^(Error|TypeError|RangeError):/, 'starts with a program error name'],
  // a code is kept for a bug report, in parentheses after the words that say it
  [
    /(?<!\()\b(?:E[A-Z]{3,}|UND_ERR_[A-Z_]+|QUERY_STATE_[A-Z_]+)\b|\b(?:E[A-Z]{3,}|UND_ERR_[A-Z_]+|QUERY_STATE_[A-Z_]+)\b(?!\))/,
    'shows a program code without words',
  ],
  [/\b(\w+) \1\b/i, 'repeats a word'],
];

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}“"(])/u)
    .map((s) =>
      s
        .trim()
        .toLowerCase()
        .replace(/[.!?]+$/, ''),
    )
    .filter((s) => s !== '');
}

function repeatedSentence(text: string): string | null {
  const seen = new Set<string>();
  for (const sentence of sentences(text)) {
    if (seen.has(sentence)) return sentence;
    seen.add(sentence);
  }
  return null;
}

const COMMON = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'is',
  'it',
  'its',
  'and',
  'or',
  'not',
  'was',
  'be',
  'this',
  'that',
  'for',
  'on',
  'at',
  'with',
  'could',
  'did',
  'has',
  'had',
]);

/** The first run of `length` words, common ones left out, that both texts hold. */
function sharedWords(a: string, b: string, length: number): string | null {
  const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}’']+/gu) ?? []).filter((word) => !COMMON.has(word));
  const runs = (list: string[]) => list.slice(0, Math.max(0, list.length - length + 1)).map((_, i) => list.slice(i, i + length).join(' '));
  const inB = new Set(runs(words(b)));
  return runs(words(a)).find((run) => inB.has(run)) ?? null;
}
