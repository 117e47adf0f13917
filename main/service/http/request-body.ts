import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from './http-error.ts';

export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, `the request body is larger than ${maxBytes} bytes`);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request as AsyncIterable<Buffer>) {
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

/** Streams the body into a file, refusing it past `maxBytes`; answers the size written. */
export async function saveBody(request: IncomingMessage, path: string, maxBytes: number): Promise<number> {
  let size = 0;
  const limit = new Transform({
    transform(part: Buffer, _encoding, done) {
      size += part.length;
      if (size > maxBytes) done(new HttpError(413, `the request body is larger than ${maxBytes} bytes`));
      else done(null, part);
    },
  });
  await pipeline(request, limit, createWriteStream(path));
  return size;
}
