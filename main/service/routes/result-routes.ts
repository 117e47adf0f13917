import { availableParallelism } from 'node:os';
import { hasResult, PARTIAL_REFUSAL } from '../../common/dune-states.ts';
import { placeholderNames } from '../../common/parameters.ts';
import type { ServiceAccount } from '../accounts/account-store.ts';
import { readableExecution } from '../executions/execution-access.ts';
import { STATE, type Execution } from '../executions/execution-store.ts';
import { expireIfDue } from '../executions/expiry.ts';
import { executionEnvelope, resultMetadata } from '../executions/present-execution.ts';
import { acceptedWeights } from '../http/accept-list.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import type { Reply, RouteRequest, Router } from '../http/router.ts';
import { Slots, SlotsByKey } from '../http/slots.ts';
import { readableQuery } from '../queries/query-access.ts';
import type { ParameterDefinition } from '../queries/query-store.ts';
import { ParameterError, resolveParameters } from '../queries/template.ts';
import { csvHeader } from '../results/cell-sql.ts';
import { isOn, nextPage } from '../results/paging.ts';
import { readResult } from '../results/read-result.ts';
import type { PageEncoding } from '../results/result-store.ts';
import { resultsJson } from '../results/results-json.ts';
import type { ServiceDeps } from '../service-deps.ts';

const PARQUET = 'application/vnd.apache.parquet';
/**
 * Parquet pages a context's requests write at once, one to a core; the rest wait their turn in the
 * order they came. The app's download asks for up to ten pages at once: written all together, they
 * shared the cores and were ready together, late; in turns the first is ready first, and the rest
 * follow faster than the link carries them (the figures over bench:link are in bench/RESULTS.md).
 */
const PARQUET_WRITES = availableParallelism();
/** Past this many waiting, a context's Parquet page is refused with a 429: ten times a download's window. */
const PARQUET_WAITING = 100;

/**
 * Whether a client of the CSV endpoints asks for the page as Parquet instead: by naming its media
 * type, at least as welcome as CSV (the app's download does; a client that takes anything gets CSV).
 */
function asksParquet(accept: string | undefined): boolean {
  const weights = acceptedWeights(accept);
  const parquet = weights.get(PARQUET) ?? 0;
  return parquet > 0 && parquet >= (weights.get('text/csv') ?? 0);
}

/**
 * `params.<name>` options of the latest-result endpoints, resolved against the query's defaults. A
 * multi-select's values come as the name repeated (`params.c=a&params.c=b`, as the Python client
 * sends a list); any other parameter named twice is refused rather than one value silently kept.
 */
function parametersOf(url: URL, sql: string, definitions: ParameterDefinition[]) {
  // in a Map, then by entries, so that `params.__proto__` is a parameter as any other
  const given = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) {
    if (name.startsWith('params.')) given.set(name.slice(7), [...(given.get(name.slice(7)) ?? []), value]);
  }
  if (given.size === 0) return null;
  const used = placeholderNames(sql);
  const values = [...given].map(([name, [first, ...more]]): [string, string | string[]] => {
    if (more.length === 0) return [name, first!];
    const definition = definitions.find((d) => d.key === name);
    const multiselect = definition?.type === 'enum' && definition.isMultiselect === true;
    // a name the query does not know is refused as unknown by resolveParameters
    if (!multiselect && (definition !== undefined || used.includes(name))) {
      throw badRequest(`params.${name} is given ${more.length + 1} times, but parameter ${name} is not a multi-select: give one value`);
    }
    return [name, [first!, ...more]];
  });
  try {
    return resolveParameters(sql, definitions, Object.fromEntries(values));
  } catch (error) {
    if (error instanceof ParameterError) throw badRequest(error.message);
    throw error;
  }
}

export function addResultRoutes(router: Router<ServiceAccount>, deps: ServiceDeps): void {
  const { queries, executions, results, config } = deps;
  const headerWord = config.serviceName[0]!.toUpperCase() + config.serviceName.slice(1).toLowerCase();
  const parquetWrites = new SlotsByKey(() => new Slots(PARQUET_WRITES, PARQUET_WAITING, 'Parquet pages of this context'));

  async function answer(
    execution: Execution,
    format: PageEncoding,
    { url, origin, request, caller }: RouteRequest<ServiceAccount>,
  ): Promise<Reply> {
    const summary = hasResult(execution.state) ? execution.result : null;
    if (format === 'csv' && !summary) {
      throw badRequest(`Query state is ${execution.state}, cannot provide CSV result`);
    }
    const envelope = executionEnvelope(execution);
    if (!summary) return { json: envelope };
    if (execution.state === STATE.completedPartial && !isOn(url, 'allow_partial_results')) {
      // the real service's text, typo included: clients match on it
      throw badRequest(PARTIAL_REFUSAL);
    }
    // Parquet holds a page in far fewer bytes than zstd CSV, and loads with far less work
    const parquet = format === 'csv' && summary.columnNames.length > 0 && asksParquet(request.headers.accept);
    const read = () => readResult(results, execution, summary, url, config.maxPageRows, parquet ? 'parquet' : format);
    const slice = await (parquet ? parquetWrites.run(caller.id, read) : read());
    const path = `/api/v1/execution/${execution.id}/results${format === 'csv' ? '/csv' : ''}`;
    // a sample is one response: no next page
    const next = slice.sampled ? null : nextPage(origin, path, url, slice.window, slice.totalRows);
    const names = slice.columns.map((c) => c.name);
    if (format === 'csv') {
      // the answer depends on whether the client asked for Parquet
      const headers: Record<string, string> = { vary: 'Accept' };
      if (next) {
        headers[`X-${headerWord}-Next-Offset`] = String(next.next_offset);
        headers[`X-${headerWord}-Next-Uri`] = next.next_uri;
      }
      if (parquet) return { body: slice.body, contentType: PARQUET, headers, precompressed: true, sent: slice.sent };
      return {
        body: [`${csvHeader(slice.columns)}\n`, ...slice.body],
        contentType: 'text/plain; charset=utf-8',
        headers,
        sent: slice.sent,
      };
    }
    const metadata = resultMetadata(
      { ...summary, rowCount: slice.totalRows, bytes: slice.totalBytes },
      { rowCount: slice.rowCount, bytes: slice.bytes, columnNames: names, columnTypes: slice.columns.map((c) => c.type) },
    );
    return { body: resultsJson(envelope, slice.body, metadata, next), contentType: 'application/json; charset=utf-8', sent: slice.sent };
  }

  async function latest(request: RouteRequest<ServiceAccount>): Promise<Execution> {
    const query = await readableQuery(queries, request.caller, request.params.id!);
    const parameters = parametersOf(request.url, query.sql, query.parameters);
    // Only runs of the reader itself or of the query's owner: never what a third context chose to run.
    const execution = await executions.latestWithResult(query.id, query.version, parameters, [request.caller.id, query.ownerId]);
    if (!execution) throw notFound('not found: No execution found for the latest version of the given query');
    return expireIfDue(execution, executions, results);
  }

  for (const format of ['json', 'csv'] as const) {
    const suffix = format === 'csv' ? '/csv' : '';
    router.add('GET', `/api/v1/execution/:id/results${suffix}`, async (request) =>
      answer(await readableExecution(deps, request.caller, request.params.id!), format, request),
    );
    router.add('GET', `/api/v1/query/:id/results${suffix}`, async (request) => answer(await latest(request), format, request));
  }
}
