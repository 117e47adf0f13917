import type { IncomingMessage } from 'node:http';
import { badRequest } from './http-error.ts';

export interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  /** A body in parts, sent one after the other: large parts are never copied into one. */
  body?: (string | Buffer)[];
  contentType?: string;
  headers?: Record<string, string>;
  /** A body compressed in its own format (Parquet): HTTP compression would only cost time. */
  precompressed?: boolean;
  /** Called once the body is sent, or never will be (the client went): its memory may be used again. */
  sent?: () => void;
}

export interface RouteRequest<Caller> {
  request: IncomingMessage;
  url: URL;
  params: Record<string, string>;
  caller: Caller;
  /** Scheme, host and port as the client addressed this server, for absolute links back to it. */
  origin: string;
}

export type Handler<Caller> = (request: RouteRequest<Caller>) => Promise<Reply>;

interface Route<Caller> {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler<Caller>;
}

export type Match<Caller> =
  | { kind: 'found'; handler: Handler<Caller>; params: Record<string, string>; pattern: string }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

/** A path's segments as routes are matched by them. */
export function segmentsOf(path: string): string[] {
  // a trailing slash names the same resource: the official clients create queries at `/query/`
  return path.split('/').filter((s) => s !== '');
}

/** Method and path patterns such as `/api/v1/query/:id`; `:name` segments become params. */
export class Router<Caller> {
  #routes: Route<Caller>[] = [];

  add(method: string, pattern: string, handler: Handler<Caller>): this {
    this.#routes.push({ method, pattern, segments: segmentsOf(pattern), handler });
    return this;
  }

  /** Throws a 400 for a path whose percent-encoding does not decode. */
  match(method: string, path: string): Match<Caller> {
    const segments = segmentsOf(path).map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw badRequest(`malformed percent-encoding in the path: ${JSON.stringify(segment.slice(0, 100))}`);
      }
    });
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', handler: route.handler, params, pattern: route.pattern };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
  }
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const segment = actual[i]!;
    if (expected.startsWith(':')) params[expected.slice(1)] = segment;
    else if (expected !== segment) return null;
  }
  return params;
}
