import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../../main/service/http/http-error.ts';
import { JsonFieldStream } from '../../../../main/service/http/json-field-stream.ts';

// The streamed body must read exactly as JSON.parse reads it, however the bytes are cut.

/** A tiny seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ['a', 'é', '€', '😀', '\n', '\r\n', '"', '\\', '/', '\t', '\u0000', '\u001f', 'x,y', '\ud800', '\udc00', '\ud83d\ude00'];

function randomText(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

/** JSON.stringify, sometimes spaced out, with some characters escaped as \\u where it would not. */
function encode(next: () => number, value: unknown): string {
  return JSON.stringify(value, null, next() < 0.3 ? 2 : 0).replace(/[€é\/]/g, (c) =>
    next() < 0.5 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
  );
}

function feed(body: Buffer, cuts: number[]): { data: Buffer; fields: Record<string, unknown>; streamed: boolean } {
  const stream = new JsonFieldStream('data', 1024);
  const out: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, body.length]) {
    out.push(stream.push(body.subarray(at, cut)));
    at = cut;
  }
  const fields = stream.end();
  return { data: Buffer.concat(out), fields, streamed: stream.streamed };
}

function randomCuts(next: () => number, length: number): number[] {
  const cuts = Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * length));
  return cuts.sort((a, b) => a - b);
}

describe('JsonFieldStream', () => {
  it('decodes the field and keeps the others as JSON.parse does, for any cut of the bytes', () => {
    const next = random(7);
    for (let round = 0; round < 400; round++) {
      const data = randomText(next, Math.floor(next() * 40));
      const others = { table_name: 't_1', description: randomText(next, 5), is_private: next() < 0.5, extra: { a: [1, '}'] }, n: -1.5e3 };
      const keys = Object.keys(others);
      const at = Math.floor(next() * (keys.length + 1));
      const object = Object.fromEntries([
        ...keys.slice(0, at).map((k) => [k, others[k as keyof typeof others]]),
        ['data', data],
        ...keys.slice(at).map((k) => [k, others[k as keyof typeof others]]),
      ]);
      const text = encode(next, object);
      const body = Buffer.from(text);
      const { data: decoded, fields, streamed } = feed(body, randomCuts(next, body.length));
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(streamed).toBe(true);
      expect(decoded.equals(Buffer.from(parsed.data as string)), text).toBe(true);
      const { data: _data, ...rest } = parsed;
      expect(fields).toEqual(rest);
    }
  });

  it('decodes a lone surrogate before an escaped character cut after any byte, even one byte at a time', () => {
    // a chunk can then end an escape begun before it and write a held surrogate as U+FFFD: more
    // bytes out than it brought in
    const text = '{"data": "\\ud800\\u20ac\\ud800\\n\\udbff\\ud83d\\ude00x"}';
    const body = Buffer.from(text);
    const expected = Buffer.from((JSON.parse(text) as { data: string }).data);
    for (let cut = 1; cut < body.length; cut++) expect(feed(body, [cut]).data.equals(expected), `cut at ${cut}`).toBe(true);
    expect(
      feed(
        body,
        Array.from({ length: body.length - 1 }, (_, i) => i + 1),
      ).data.equals(expected),
    ).toBe(true);
  });

  it('refuses with a 400 naming the byte whatever JSON.parse refuses, and nothing it accepts', () => {
    const next = random(11);
    const base = '{"table_name":"t","data":"a\\nb\\u00e9\\ud83d\\ude00","is_private":false,"description":"d"}';
    let refused = 0;
    for (let round = 0; round < 2000; round++) {
      const chars = [...base];
      const edits = 1 + Math.floor(next() * 2);
      for (let e = 0; e < edits; e++) {
        const i = Math.floor(next() * chars.length);
        const replacement = '{}[]":,\\ u0x"'[Math.floor(next() * 13)]!;
        if (next() < 0.5) chars.splice(i, 1);
        else chars.splice(i, 0, replacement);
      }
      const text = chars.join('');
      let expected: unknown;
      try {
        expected = JSON.parse(text);
      } catch {
        expected = null;
      }
      const body = Buffer.from(text);
      const valid =
        expected !== null &&
        typeof expected === 'object' &&
        !Array.isArray(expected) &&
        typeof (expected as { data?: unknown }).data === 'string';
      if (valid) {
        const { data } = feed(body, randomCuts(next, body.length));
        expect(data.equals(Buffer.from((expected as { data: string }).data)), text).toBe(true);
      } else if (expected === null) {
        refused++;
        expect(() => feed(body, randomCuts(next, body.length)), text).toThrow(/Invalid request body payload: .* \(at byte \d+\)/s);
      }
    }
    expect(refused).toBeGreaterThan(500);
  });

  it('says what is wrong: a field too large to keep, the field twice, the field not a string', () => {
    const error = (text: string) => {
      try {
        feed(Buffer.from(text), []);
      } catch (e) {
        expect(e).toBeInstanceOf(HttpError);
        return (e as HttpError).message;
      }
      return 'accepted';
    };
    expect(error(`{"description":"${'x'.repeat(2000)}","data":"a"}`)).toMatch(/the field "description" is larger than 1024 bytes/);
    expect(error('{"data":"a","data":"b"}')).toMatch(/"data" is given twice/);
    expect(error('{"data":5}')).toMatch(/"data" must be a string/);
    expect(error('{"data":"a\tb"}')).toMatch(/control character .* \(at byte 10\)/);
    expect(error('{"data":"a"')).toMatch(/the body ends before its JSON object does/);
    expect(error('[1]')).toMatch(/expected a JSON object \(at byte 0\)/);
    expect(feed(Buffer.from('{"table_name":"t"}'), []).streamed).toBe(false);
  });
});
