import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.ts';
import { JsonFieldStream } from './json-field-stream.ts';

export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, `the request body is larger than ${maxBytes} bytes`);
  const parts: Buffer[] = [];
  let size = 0;
  // not destroyed when refused: the rest is then read and dropped while the refusal is sent
  for await (const part of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > maxBytes) throw new HttpError(413, `the request body is larger than ${maxBytes} bytes`);
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/**
 * The body as a JSON object, whatever the Content-Type says: official clients send JSON without
 * one, and some send no body at all, which reads as `{}`.
 */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  const text = body.toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid request body payload');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'Invalid request body payload: expected a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * Writes the body to a file as it arrives, calling `check` with the size so far so that a body
 * over a limit is refused when the limit is reached, not once it is all in. A refusal leaves the
 * rest of the body unread (the answer closes the connection), and the file for the caller to remove.
 */
async function streamToFile(
  request: IncomingMessage,
  path: string,
  decode: (chunk: Buffer) => Buffer,
  check: (bytes: number) => void,
): Promise<number> {
  const file = await open(path, 'w');
  let size = 0;
  try {
    for await (const chunk of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      const piece = decode(chunk);
      size += piece.length;
      check(size);
      await file.write(piece);
    }
  } finally {
    await file.close();
  }
  return size;
}

/** Streams the body into a file; answers the size written. */
export function saveBody(request: IncomingMessage, path: string, check: (bytes: number) => void): Promise<number> {
  return streamToFile(request, path, (chunk) => chunk, check);
}

/**
 * A JSON object body whose string field `field` is streamed, decoded, into a file; answers the
 * other fields and the field's size (null when the body has no such string).
 */
export async function saveJsonField(
  request: IncomingMessage,
  path: string,
  field: string,
  check: (bytes: number) => void,
): Promise<{ fields: Record<string, unknown>; bytes: number | null }> {
  // the other fields are names and flags: a few kilobytes at most
  const body = new JsonFieldStream(field, 64 * 1024);
  const bytes = await streamToFile(request, path, (chunk) => body.push(chunk), check);
  const fields = body.end();
  return { fields, bytes: body.streamed ? bytes : null };
}
