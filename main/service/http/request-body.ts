import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { eachChunk } from './body-chunks.ts';
import { HttpError } from './http-error.ts';
import { JsonFieldStream } from './json-field-stream.ts';

/** The whole body, refused with a 413 past `maxBytes` and with a 408 when too slow (see eachChunk). */
export async function readBody(request: IncomingMessage, maxBytes: number, idleMillis: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, `the request body is larger than ${maxBytes} bytes`);
  const parts: Buffer[] = [];
  let size = 0;
  await eachChunk(request, idleMillis, (part) => {
    size += part.length;
    if (size > maxBytes) throw new HttpError(413, `the request body is larger than ${maxBytes} bytes`);
    parts.push(part);
  });
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
 * rest of the body to be read and dropped while it is answered, and the file for the caller to remove.
 */
async function streamToFile(
  request: IncomingMessage,
  path: string,
  idleMillis: number,
  decode: (chunk: Buffer) => Buffer,
  check: (bytes: number) => void,
): Promise<number> {
  const file = await open(path, 'w');
  let size = 0;
  try {
    await eachChunk(request, idleMillis, async (chunk) => {
      const piece = decode(chunk);
      size += piece.length;
      check(size);
      await file.write(piece);
    });
  } finally {
    await file.close();
  }
  return size;
}

/** Streams the body into a file; answers the size written. */
export function saveBody(request: IncomingMessage, path: string, idleMillis: number, check: (bytes: number) => void): Promise<number> {
  return streamToFile(request, path, idleMillis, (chunk) => chunk, check);
}

/**
 * A JSON object body whose string field `field` is streamed, decoded, into a file; answers the
 * other fields and the field's size (null when the body has no such string).
 */
export async function saveJsonField(
  request: IncomingMessage,
  path: string,
  field: string,
  idleMillis: number,
  check: (bytes: number) => void,
): Promise<{ fields: Record<string, unknown>; bytes: number | null }> {
  // the other fields are names and flags: a few kilobytes at most
  const body = new JsonFieldStream(field, 64 * 1024);
  const bytes = await streamToFile(request, path, idleMillis, (chunk) => body.push(chunk), check);
  const fields = body.end();
  return { fields, bytes: body.streamed ? bytes : null };
}
