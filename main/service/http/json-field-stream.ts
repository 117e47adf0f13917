import { badRequest } from './http-error.ts';

// A JSON object body whose one string field may be hundreds of megabytes (an upload's `data`):
// that field is decoded as the bytes arrive and handed on in pieces, so the body is never held
// whole; every other field is small and kept, then parsed as JSON would parse it.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const REPLACEMENT = Buffer.from('\ufffd');
const ESCAPES: Record<string, number> = { '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

type State =
  | 'start' // before `{`
  | 'first-key' // after `{`: a key or `}`
  | 'key' // after `,`: a key
  | 'colon'
  | 'value'
  | 'after-value' // `,` or `}`
  | 'end'; // only white space may follow

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * Splits a JSON object arriving in chunks: `push` answers the decoded bytes of `field`'s string
 * value found in the chunk, as one buffer (a piece per escape would make as many file writes); `end` answers the other fields. Throws a 400 naming the byte at which
 * the body stops being a JSON object, or the field that is too large to keep.
 */
export class JsonFieldStream {
  readonly #field: string;
  readonly #maxKept: number;
  #state: State = 'start';
  #offset = 0;
  #fields: Record<string, unknown> = {};
  #key = '';
  /** The raw text of the key or kept value being read, with its nesting and string state. */
  #raw: Buffer[] = [];
  #rawSize = 0;
  #reading: 'key' | 'kept' | 'streamed' | null = null;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** Within the streamed string: the escape being read (`\`, `\u12`...) and a high surrogate awaiting its pair. */
  #escape = '';
  #highSurrogate: number | null = null;
  #streamed = false;
  /**
   * The decoded bytes of the chunk being pushed. An escape takes more bytes than it writes, except
   * one begun in the chunk before: its last byte may write three, after a surrogate held from
   * before is written as U+FFFD (three more). So never more than the chunk's length and six.
   */
  #out = Buffer.alloc(0);
  #outLength = 0;

  constructor(field: string, maxKept: number) {
    this.#field = field;
    this.#maxKept = maxKept;
  }

  /** Whether the streamed field was in the body as a string. */
  get streamed(): boolean {
    return this.#streamed;
  }

  push(chunk: Buffer): Buffer {
    this.#out = Buffer.allocUnsafe(chunk.length + 2 * REPLACEMENT.length);
    this.#outLength = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.#reading === 'streamed') i = this.#decode(chunk, i);
      else if (this.#reading !== null) i = this.#capture(chunk, i);
      else i = this.#structure(chunk, i);
    }
    this.#offset += chunk.length;
    return this.#out.subarray(0, this.#outLength);
  }

  #emit(bytes: Buffer | Uint8Array): void {
    this.#out.set(bytes, this.#outLength);
    this.#outLength += bytes.length;
  }

  end(): Record<string, unknown> {
    if (this.#state !== 'end') this.#fail(this.#offset, 'the body ends before its JSON object does');
    return this.#fields;
  }

  #structure(chunk: Buffer, i: number): number {
    const byte = chunk[i]!;
    if (isSpace(byte)) return i + 1;
    const char = String.fromCharCode(byte);
    switch (this.#state) {
      case 'start':
        if (char !== '{') this.#fail(this.#offset + i, 'expected a JSON object');
        this.#state = 'first-key';
        return i + 1;
      case 'first-key':
      case 'key':
        if (char === '}' && this.#state === 'first-key') {
          this.#state = 'end';
          return i + 1;
        }
        if (char !== '"') this.#fail(this.#offset + i, 'expected a field name');
        this.#startRaw('key');
        return i;
      case 'colon':
        if (char !== ':') this.#fail(this.#offset + i, 'expected ":"');
        this.#state = 'value';
        return i + 1;
      case 'value':
        if (this.#key === this.#field && char === '"') {
          if (this.#streamed) this.#fail(this.#offset + i, `"${this.#field}" is given twice`);
          this.#streamed = true;
          this.#reading = 'streamed';
          return i + 1;
        }
        this.#startRaw('kept');
        return i;
      case 'after-value':
        if (char === ',') this.#state = 'key';
        else if (char === '}') this.#state = 'end';
        else this.#fail(this.#offset + i, 'expected "," or "}"');
        return i + 1;
      case 'end':
        return this.#fail(this.#offset + i, 'text after the JSON object');
    }
  }

  #startRaw(reading: 'key' | 'kept'): void {
    this.#reading = reading;
    this.#raw = [];
    this.#rawSize = 0;
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
  }

  /** Reads a key or a kept value up to its end, which is found by nesting and string state. */
  #capture(chunk: Buffer, start: number): number {
    let i = start;
    let ended = false;
    for (; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) {
          this.#inString = false;
          if (this.#depth === 0) {
            i++;
            ended = true;
            break;
          }
        }
      } else if (byte === QUOTE) this.#inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.#depth++;
      else if (byte === 0x7d || byte === 0x5d) {
        if (this.#depth === 0) {
          ended = true; // the `}` closing the body ends a number, true, false or null
          break;
        }
        if (--this.#depth === 0) {
          i++;
          ended = true;
          break;
        }
      } else if (this.#depth === 0 && (byte === 0x2c || isSpace(byte))) {
        ended = true;
        break;
      }
    }
    this.#rawSize += i - start;
    if (this.#rawSize > this.#maxKept) {
      const what = this.#reading === 'key' ? 'a field name' : `the field "${this.#key}"`;
      this.#fail(this.#offset + i, `${what} is larger than ${this.#maxKept} bytes`);
    }
    this.#raw.push(chunk.subarray(start, i));
    if (ended) this.#finishRaw(this.#offset + i);
    return i;
  }

  #finishRaw(at: number): void {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(this.#raw).toString('utf8'));
    } catch {
      this.#fail(at, this.#reading === 'key' ? 'a field name is not a JSON string' : `the field "${this.#key}" is not JSON`);
    }
    if (this.#reading === 'key') {
      this.#key = String(value);
      this.#state = 'colon';
    } else {
      if (this.#key === this.#field) this.#fail(at, `"${this.#field}" must be a string`);
      this.#fields[this.#key] = value;
      this.#state = 'after-value';
    }
    this.#reading = null;
    this.#raw = [];
  }

  /** Decodes the streamed string from `start`: plain runs are copied in one go, escapes a character at a time. */
  #decode(chunk: Buffer, start: number): number {
    let i = start;
    if (this.#escape !== '') return this.#escapeByte(chunk, i);
    while (i < chunk.length) {
      const byte = chunk[i]!;
      if (byte === QUOTE || byte === BACKSLASH || byte < 0x20) break;
      i++;
    }
    if (i > start) {
      this.#flushSurrogate();
      this.#emit(chunk.subarray(start, i));
    }
    if (i === chunk.length) return i;
    const byte = chunk[i]!;
    if (byte < 0x20) this.#fail(this.#offset + i, `"${this.#field}" holds a control character that JSON must escape`);
    if (byte === QUOTE) {
      this.#flushSurrogate();
      this.#reading = null;
      this.#state = 'after-value';
      return i + 1;
    }
    this.#escape = '\\';
    return i + 1;
  }

  #escapeByte(chunk: Buffer, i: number): number {
    const char = String.fromCharCode(chunk[i]!);
    this.#escape += char;
    if (this.#escape.length === 2) {
      if (char === 'u') return i + 1;
      const byte = ESCAPES[char];
      if (byte === undefined) this.#fail(this.#offset + i, `"${this.#field}" holds an unknown escape \\${char}`);
      this.#flushSurrogate();
      this.#out[this.#outLength++] = byte;
      this.#escape = '';
      return i + 1;
    }
    if (!/^[0-9a-fA-F]$/.test(char)) this.#fail(this.#offset + i, `"${this.#field}" holds a \\u escape without four hex digits`);
    if (this.#escape.length < 6) return i + 1;
    const unit = parseInt(this.#escape.slice(2), 16);
    this.#escape = '';
    if (unit >= 0xdc00 && unit <= 0xdfff && this.#highSurrogate !== null) {
      const point = 0x10000 + ((this.#highSurrogate - 0xd800) << 10) + (unit - 0xdc00);
      this.#highSurrogate = null;
      this.#emit(Buffer.from(String.fromCodePoint(point)));
      return i + 1;
    }
    this.#flushSurrogate();
    if (unit >= 0xd800 && unit <= 0xdbff) this.#highSurrogate = unit;
    else this.#emit(unit >= 0xdc00 && unit <= 0xdfff ? REPLACEMENT : Buffer.from(String.fromCharCode(unit)));
    return i + 1;
  }

  /** A high surrogate not followed by its low half is written as U+FFFD, as Buffer.from does with such a string. */
  #flushSurrogate(): void {
    if (this.#highSurrogate === null) return;
    this.#highSurrogate = null;
    this.#emit(REPLACEMENT);
  }

  #fail(at: number, reason: string): never {
    throw badRequest(`Invalid request body payload: ${reason} (at byte ${at})`);
  }
}
