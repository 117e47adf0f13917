import { readBaseUrl, type BaseUrlReading } from '../../common/base-url.ts';
import { ok } from '../../contract/index.ts';
import { nodeFetchAcceptEncoding } from './accept-encoding.ts';
import { AnswerTimer } from './answer-timer.ts';
import { failure, type ClientResult, type ServiceError } from './errors.ts';
import { httpFailure, parseJson } from './http-failure.ts';
import { networkFailureText } from './network-words.ts';
import { backoffDelay, DEFAULT_RETRY_POLICY, isRetryableStatus, retryAfterMs, sleep, type RetryPolicy } from './retry-policy.ts';

// The one place that speaks HTTP to the service: base URL, key header, timeout, abort, retries,
// and errors turned into values. The resource modules only describe paths and shapes.

export interface ServiceConnection {
  /** Scheme, host and port, e.g. https://api.dune.com; a trailing /api or /api/v1 is tolerated. */
  baseUrl: string;
  /** Decides the key header, `X-<serviceName>-API-KEY`, and the CSV pagination headers. */
  serviceName: string;
  apiKey: string;
  /**
   * How long an attempt waits for the answer to begin, and then for each next piece of its body:
   * a body that keeps coming is read to its end however long it takes.
   */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** How requests leave the process; the host decides (the OS network stack, a proxy). Node's fetch by default. */
  fetch?: Fetch;
  /**
   * Told after every attempt whether the service answered: null when it did (the key accepted), the
   * failure when the network failed or the key was refused. Attempts, not requests, so that the
   * app hears at once of a service gone, not after the retries. A cancelled attempt tells nothing.
   */
  onReach?: (failure: ServiceError | null) => void;
}

export type Fetch = (url: URL, init: RequestInit) => Promise<FetchedResponse>;

/** What the transport reads of a response: the web's Response has it, and so has loopbackFetch's. */
export interface FetchedResponse {
  status: number;
  headers: ResponseHeaders;
  body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

/** A response's headers, each looked up by name in any case; several values of one name joined with commas. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below /api/v1, starting with a slash; or `url`, an absolute URL under the API root. */
  path?: string;
  url?: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /**
   * A body sent as given with its content type: CSV for a table insert, or a body too large to hold
   * whole, streamed (a function, so that each attempt reads it from the start).
   */
  content?: { type: string; data: string | Uint8Array | (() => AsyncIterable<Uint8Array>) };
  signal?: AbortSignal;
  /** In place of the connection's wait for the answer to begin, for a request that carries a large body. */
  timeoutMs?: number;
  /** Safe to send twice. GET is; a POST is only when it says so. */
  idempotent?: boolean;
  accept?: string;
}

export interface RawResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

/**
 * Takes a 2xx body as it arrives. It may be called again for the same request (a retry after the
 * body broke off), and must then start over. What it throws, other than a failed read of the body,
 * is thrown on to the caller: a full disk is not the service's doing.
 */
export type BodyConsumer<T> = (body: AsyncIterable<Uint8Array>, headers: ResponseHeaders) => Promise<T>;

export interface StreamedResponse<T> {
  headers: ResponseHeaders;
  value: T;
}

/** Turns a 2xx JSON body into the typed value, or null when the body is not what was expected. */
export type BodyParser<T> = (body: unknown) => T | null;

export interface Transport {
  /** `<base>/api/v1`: URLs the service hands out (next_uri) are followed only below it. */
  root: string;
  serviceName: string;
  json<T>(options: RequestOptions, parse: BodyParser<T>): Promise<ClientResult<T>>;
  /** The 2xx response as it came, for bodies that are not JSON (CSV). */
  raw(options: RequestOptions): Promise<ClientResult<RawResponse>>;
  /** A 2xx body handed to `consume` as it arrives, never held whole; timeout and retries cover the body too. */
  stream<T>(options: RequestOptions, consume: BodyConsumer<T>): Promise<ClientResult<StreamedResponse<T>>>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * `<base>/api/v1` in URL's normal form, the form `isUnderRoot` compares addresses in; a base that
 * already ends in /api or /api/v1 is not given it twice. Why there is none when the base is not a
 * URL a request can go to.
 */
export function apiRoot(baseUrl: string): BaseUrlReading {
  const base = readBaseUrl(baseUrl);
  return base.ok ? { ok: true, url: `${base.url.replace(/\/api(\/v1)?$/, '')}/api/v1` } : base;
}

export function isUnderRoot(root: string, url: URL): boolean {
  return `${url.origin}${url.pathname}`.startsWith(`${root}/`);
}

export function createTransport(connection: ServiceConnection): Transport {
  return new HttpTransport(connection);
}

class HttpTransport implements Transport {
  readonly root: string;
  readonly serviceName: string;
  readonly #connection: ServiceConnection;
  /** Why nothing can be sent, when the base URL is not one a request can go to. */
  readonly #baseProblem: string | null;
  readonly #keyHeader: string;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #send: Fetch;
  readonly #acceptEncoding: string | null;

  constructor(connection: ServiceConnection) {
    const root = apiRoot(connection.baseUrl);
    // a root nothing is under, so that no address is taken for the service's
    this.root = root.ok ? root.url : '';
    this.#baseProblem = root.ok ? null : root.problem;
    this.serviceName = connection.serviceName;
    this.#connection = connection;
    this.#keyHeader = `X-${connection.serviceName}-API-KEY`;
    this.#timeoutMs = connection.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#policy = connection.retry ?? DEFAULT_RETRY_POLICY;
    this.#send = connection.fetch ?? fetch;
    this.#acceptEncoding = connection.fetch === undefined ? nodeFetchAcceptEncoding(process.versions.undici) : null;
  }

  raw(options: RequestOptions): Promise<ClientResult<RawResponse>> {
    return this.#request(options);
  }

  async stream<T>(options: RequestOptions, consume: BodyConsumer<T>): Promise<ClientResult<StreamedResponse<T>>> {
    const outcome = await this.#request(options, consume);
    return outcome.ok ? ok({ headers: outcome.data.headers, value: outcome.data.value! }) : outcome;
  }

  async json<T>(options: RequestOptions, parse: BodyParser<T>): Promise<ClientResult<T>> {
    const response = await this.#request(options);
    if (!response.ok) return response;
    const body = parseJson(response.data.text);
    const value = body === undefined ? null : parse(body);
    if (value === null) {
      return failure(
        'server_error',
        `The service answered ${options.method} ${options.path ?? options.url} with an unexpected body.`,
        response.data.status,
      );
    }
    return ok(value);
  }

  #urlOf(options: RequestOptions): URL | null {
    let url: URL;
    try {
      url = new URL(options.url ?? this.root + (options.path ?? ''));
    } catch {
      return null;
    }
    // The key goes only to the service it belongs to, whatever URL a response suggests.
    if (!isUnderRoot(this.root, url)) return null;
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** The request with its retries: the first 2xx response, or the failure that ended the tries. */
  async #request<T>(options: RequestOptions, consume?: BodyConsumer<T>): Promise<ClientResult<RawResponse & { value?: T }>> {
    if (this.#baseProblem !== null) return failure('bad_request', `Nothing was sent: ${this.#baseProblem}.`);
    const url = this.#urlOf(options);
    if (url === null)
      return failure(
        'bad_request',
        `Nothing was sent to ${options.url ?? options.path}: the API key goes only to addresses under ${this.root}.`,
      );
    const policy = this.#policy;
    const idempotent = options.idempotent ?? options.method === 'GET';
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      const outcome = await this.#attempt(url, options, consume);
      this.#tellReach(outcome);
      const lastAttempt = attemptNumber >= policy.maxAttempts;
      let wait: number | null = null;
      if (!outcome.ok) {
        const transient = outcome.error.kind === 'unreachable' || outcome.error.kind === 'timeout';
        if (!transient || !idempotent || lastAttempt) return outcome;
        wait = backoffDelay(policy, attemptNumber);
      } else if (outcome.data.status >= 200 && outcome.data.status <= 299) {
        return outcome;
      } else if (!lastAttempt && isRetryableStatus(outcome.data.status, idempotent)) {
        wait = retryAfterMs(outcome.data.headers.get('retry-after')) ?? backoffDelay(policy, attemptNumber);
      }
      if (wait === null || wait > policy.maxDelayMs) return outcome.ok ? httpFailure(outcome.data, wait) : outcome;
      if (!(await sleep(wait, options.signal))) return failure('cancelled', 'The request was cancelled.');
    }
  }

  #headers(options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { [this.#keyHeader]: this.#connection.apiKey, Accept: options.accept ?? 'application/json' };
    if (this.#acceptEncoding !== null) headers['Accept-Encoding'] = this.#acceptEncoding;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.content !== undefined) headers['Content-Type'] = options.content.type;
    return headers;
  }

  /** One attempt: a response of any status (a 2xx body given to `consume` when there is one), or why there was none. */
  async #attempt<T>(url: URL, options: RequestOptions, consume?: BodyConsumer<T>): Promise<ClientResult<RawResponse & { value?: T }>> {
    // a request's own limit is for sending its large body; the pieces of any answer come as quickly
    const timer = new AnswerTimer(options.timeoutMs ?? this.#timeoutMs, this.#timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    const content = options.content?.data;
    let consuming = false;
    let bodyBroke = false;
    // called as a plain function, as the fetch of Node or the host expects
    const send = this.#send;
    try {
      timer.awaitAnswer(url.origin);
      const response = await send(url, {
        method: options.method,
        headers: this.#headers(options),
        body:
          typeof content === 'function' ? content() : (content ?? (options.body === undefined ? undefined : JSON.stringify(options.body))),
        ...(typeof content === 'function' ? { duplex: 'half' as const } : {}),
        signal,
      });
      if (consume === undefined || response.status < 200 || response.status > 299) {
        return ok({ status: response.status, headers: response.headers, text: await textOf(response, timer, url.origin) });
      }
      const body = response.body === null ? null : timer.timed(response.body, url.origin);
      const reads = async function* () {
        try {
          if (body !== null) yield* body;
        } catch (error) {
          bodyBroke = true;
          throw error;
        }
      };
      consuming = true;
      const value = await consume(reads(), response.headers);
      return ok({ status: response.status, headers: response.headers, text: '', value });
    } catch (error) {
      // a consumer's own failure; one caused by a broken body is the network's, below
      if (consuming && !bodyBroke && !options.signal?.aborted && timer.stopped === null) throw error;
      if (options.signal?.aborted) return failure('cancelled', 'The request was cancelled.');
      if (timer.stopped !== null) return failure('timeout', timer.stopped);
      return failure('unreachable', networkFailureText(error, url));
    } finally {
      timer.pause();
    }
  }

  #tellReach(outcome: ClientResult<RawResponse>): void {
    const connection = this.#connection;
    if (connection.onReach === undefined) return;
    if (!outcome.ok) {
      if (outcome.error.kind !== 'cancelled') connection.onReach(outcome.error);
    } else if (outcome.data.status === 401) connection.onReach(httpFailure(outcome.data, null).error);
    else connection.onReach(null);
  }
}

/** The whole body as text, each piece of it awaited under the timer. */
async function textOf(response: FetchedResponse, timer: AnswerTimer, origin: string): Promise<string> {
  if (response.body === null) return '';
  const pieces: Uint8Array[] = [];
  for await (const piece of timer.timed(response.body, origin)) pieces.push(piece);
  return new TextDecoder().decode(Buffer.concat(pieces));
}
