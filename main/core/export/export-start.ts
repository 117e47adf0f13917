import { EXPORT_FORMATS, fail, ok, type ExportFormat, type Result } from '../../contract/index.ts';
import { FilterLanguageError } from '../../filter-language/index.ts';
import { findAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { compileView } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import { isFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { ActivityLog } from '../logging/activity-log.ts';
import { pivotFileSource } from '../pivot/pivot-file.ts';
import { cachedEntry } from '../results/cached-entry.ts';
import { checkSyntax, languageFailure, viewOf } from '../results/view.ts';
import { cacheFirstSource } from './cache-first.ts';
import type { ExportDestinations } from './destination.ts';
import { cacheSource, EXPORT_SOURCE, serviceSource, type ExportSource } from './export-sources.ts';
import type { ExportRuns } from './exports.ts';

// The start of an export of a result, of its view, or of its pivot's table: where the bytes come
// from, then the host's choice of where they go, then the run that writes them (its progress
// followed as events).

type ExportRequest = Parameters<Handlers['results:export']>[0];
type PivotExportRequest = Parameters<Handlers['results:exportPivot']>[0];

export interface ExportStartOptions {
  accounts: AccountRegistry;
  cache: ResultCache;
  exports: ExportRuns;
  /** Absent where nothing can receive a file (exports then answer `internal`). */
  destinations?: ExportDestinations;
  /** Where an export's start is logged (its end comes with its progress); absent, it is not. */
  activity?: ActivityLog;
}

/** CSV comes from the service when the cache does not hold the result; the other formats only from the cache. */
async function exportSource({ accounts, cache }: ExportStartOptions, request: ExportRequest): Promise<Result<ExportSource>> {
  const { accountId, executionId, allowPartial = false, format = 'csv', text = 'spreadsheet' } = request;
  const view = request.scope === 'view' ? viewOf(request) : {};
  const bad = checkSyntax(view);
  if (bad) return bad;
  const fromEntry = async (entry: CacheEntry) => {
    const compiled = compileView(entry, view, EXPORT_SOURCE);
    if (compiled instanceof FilterLanguageError) return languageFailure(compiled);
    return ok(await cacheSource(cache.db, entry, compiled, { format, text }));
  };
  const entry = await cachedEntry(cache, { accountId, executionId, allowPartial });
  if (entry !== null && isFailure(entry)) return entry;
  if (entry !== null) return fromEntry(entry);
  const account = findAccount(accounts, accountId);
  if (isFailure(account)) return account;
  if (format !== 'csv') return cacheFirstSource(cache, account.client, { accountId, executionId, allowPartial }, fromEntry);
  return serviceSource(account.client, { executionId, view, allowPartial, text });
}

export async function startExport(options: ExportStartOptions, request: ExportRequest): ReturnType<Handlers['results:export']> {
  if (!options.destinations) return fail('internal', 'This host cannot save files.');
  const source = await exportSource(options, request);
  if (!source.ok) return source;
  const format = request.format ?? 'csv';
  const fileName = request.fileName ?? `result-${request.executionId}.${EXPORT_FORMATS[format].extension}`;
  return beginExport(options, source.data, { ...request, format, fileName });
}

/** A pivot's table as shown, to a file: from the cache only, where the pivot is computed. */
export async function startPivotExport(
  options: ExportStartOptions,
  request: PivotExportRequest,
): ReturnType<Handlers['results:exportPivot']> {
  if (!options.destinations) return fail('internal', 'This host cannot save files.');
  const { accountId, executionId, format, filters, shown, headings, fileName, ...settings } = request;
  const entry = await options.cache.use(accountId, executionId);
  if (entry === null)
    return fail('not_found', 'Pivots are computed from the cached result, and this result is not cached (yet): cache it first.');
  const source = await pivotFileSource(options.cache.db, entry, {
    settings,
    filters: viewOf({ filters }).filters,
    format,
    shown,
    headings,
  });
  if (!source.ok) return source;
  return beginExport(options, source.data, {
    accountId,
    executionId,
    format,
    fileName: fileName ?? `pivot-${executionId}.${EXPORT_FORMATS[format].extension}`,
  });
}

/** Asks the host where the file goes, then runs the export. */
async function beginExport(
  { exports, destinations, activity }: ExportStartOptions,
  source: ExportSource,
  request: { accountId: string; executionId: string; format: ExportFormat; fileName: string },
): ReturnType<Handlers['results:export']> {
  const { accountId, executionId, format, fileName } = request;
  const exportId = exports.newId();
  const target = await destinations!.choose(exportId, fileName, format);
  if (target === null) return fail('cancelled', 'No file was chosen, so nothing was exported.');
  activity?.exportStarted(exportId, { accountId, executionId, format, fileName: target.filePath ?? fileName });
  exports.run(exportId, source, target);
  return ok({ exportId, delivery: target.delivery });
}
