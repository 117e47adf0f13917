// `npm run bench:footprint`: what the browser host costs the machine, on a fresh data folder and
// again on one it used before: the start to a URL that answers the first screen, the resident
// memory idle, its peak while the million-row demo result runs, downloads into the cache and is
// browsed in Chromium, and what it keeps 60 s later. The host is one process (the embedded
// service is a thread of it), so its resident memory is the app's. Needs a build
// (`npm run build`), Chromium and Linux's /proc; about 4 minutes. Then the service's floor over the
// project's fuzz run (bench/fuzz-floor.ts), 200,000 requests unless `--fuzz-requests N` says.
// `--only starts|browsing|fuzz` measures one part, to compare a change (its figures are then not
// recorded): the starts and idle memory, or one start and the million rows on an existing folder,
// or the fuzz floor.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, expect, type Browser } from '@playwright/test';
import { rssKindsOf, rssOf, sampleRss, startHost, type RunningHost } from './footprint-host.ts';
import { measureFuzzFloor } from './fuzz-floor.ts';
import { recordPrinted } from './results-file.ts';
import { median } from './timing.ts';

// Everything printed from here on is this run's section of bench/RESULTS.md, written once it ends well.
const recording = recordPrinted('bench:footprint');

const { values: args } = parseArgs({
  options: { 'fuzz-requests': { type: 'string', default: '200000' }, only: { type: 'string', default: '' } },
});
const FUZZ_REQUESTS = Number(args['fuzz-requests']);
const ONLY = args.only;
if (!['', 'starts', 'browsing', 'fuzz'].includes(ONLY)) throw new Error(`--only takes starts, browsing or fuzz, not ${ONLY}`);
const STARTS = 3;
const IDLE_AFTER_MS = 5_000;
const AFTER_BROWSING_MS = 60_000;
const SAMPLE_EVERY_MS = 50;
const MB = 1024 * 1024;

const GOALS = { startMs: 800, idleMb: 150, peakMb: 400, afterMb: 250 };

interface Figures {
  starts: number[];
  /** Node alone, started just before each of `starts`. */
  bareStarts: number[];
  idle: number[];
  /** Of the last idle figure: memory of its own, and pages of files it maps. */
  idleKinds: { anonymous: number; files: number };
  /** Null when the million rows were not browsed (`--only starts`). */
  peak: number | null;
  after: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const spread = (values: number[], unit: (value: number) => string) => `(${unit(Math.min(...values))}-${unit(Math.max(...values))})`;
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
const mb = (bytes: number) => `${Math.round(bytes / MB).toLocaleString('en')} MB`;
const mbIfAny = (bytes: number | null) => (bytes === null ? '-' : mb(bytes));

/** Starts the host on `dataDir`, keeps its start time and its memory once idle, and stops it unless asked to keep it. */
async function measuredStart(dataDir: string, figures: Figures, keep: boolean): Promise<RunningHost | null> {
  figures.bareStarts.push(bareNodeStartMs());
  const host = await startHost(dataDir);
  figures.starts.push(host.startMs);
  await sleep(IDLE_AFTER_MS);
  figures.idle.push(rssOf(host.child.pid!));
  figures.idleKinds = rssKindsOf(host.child.pid!);
  if (keep) return host;
  await host.stop();
  return null;
}

/** The million-row demo result as a person meets it: opened, run, downloaded into the cache, scrolled. */
async function browseMillionRows(browser: Browser, host: RunningHost, figures: Figures): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const sampler = sampleRss(host.child.pid!, SAMPLE_EVERY_MS);
  try {
    await page.goto(host.url);
    await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill('One million rows');
    await page
      .getByRole('listbox', { name: 'Queries' })
      .getByRole('option', { name: /^One million rows/ })
      .click();
    // a data folder used before opens on the tab of its last run, Completed and cached: what is
    // waited for is this run's, known by its execution id and by the result it shows
    const executionId = page.getByTitle('Execution id');
    const lastRun = (await executionId.count()) > 0 ? await executionId.textContent() : null;
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionId).not.toHaveText(lastRun ?? '', { timeout: 30_000 });
    await expect(page.getByRole('status', { name: 'Execution state' })).toHaveText('Completed', { timeout: 120_000 });
    const summary = page.getByLabel('Result summary');
    await expect(summary.getByTestId('result-freshness')).toHaveText(/^ran under a minute ago/, { timeout: 30_000 });
    await summary.getByText(/from cache|page by page|caching failed/).waitFor({ timeout: 300_000 });
    const scrollbar = page.locator('.ag-body-vertical-scroll-viewport');
    for (const fraction of [0.25, 0.5, 0.9, 0.999, 0]) {
      await scrollbar.evaluate((element, to) => {
        element.scrollTop = to * (element.scrollHeight - element.clientHeight);
      }, fraction);
      await page.getByRole('grid').locator('[role="row"][row-index] [role="gridcell"][col-id="c0"]').first().waitFor();
      await sleep(500);
    }
  } finally {
    figures.peak = sampler.stop();
  }
  await sleep(AFTER_BROWSING_MS);
  figures.after = rssOf(host.child.pid!);
  await page.close();
}

/**
 * One data folder's figures: `starts` starts (each on a fresh folder, or all on the same used
 * one), then, if asked, the million rows.
 */
async function measure(
  browser: Browser,
  kind: 'fresh' | 'existing',
  dirs: () => string,
  starts: number,
  browse: boolean,
): Promise<Figures> {
  const figures: Figures = { starts: [], bareStarts: [], idle: [], idleKinds: { anonymous: 0, files: 0 }, peak: null, after: null };
  let host: RunningHost | null = null;
  for (let i = 0; i < starts; i++) host = await measuredStart(dirs(), figures, i === starts - 1);
  try {
    if (browse) await browseMillionRows(browser, host!, figures);
  } finally {
    await host!.stop();
  }
  console.error(`(${kind} data folder measured)`);
  return figures;
}

/** Node itself starting and printing, just before each start of the host: how busy the machine was then. */
function bareNodeStartMs(): number {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', 'console.log(1)']);
  return performance.now() - started;
}

function row(label: string, fresh: string, existing: string, goal: string): void {
  console.log(`  ${label.padEnd(58)}${fresh.padEnd(30)}${existing.padEnd(30)}${goal}`);
}

function print(fresh: Figures, existing: Figures): void {
  console.log('Browser host (as `npm run web` starts it) on this machine, resident memory of its one process');
  row('', 'fresh data folder', 'existing data folder', 'goal');
  row(
    `start to a usable URL (median of ${STARTS})`,
    `${ms(median(fresh.starts))} ${spread(fresh.starts, ms)}`,
    `${ms(median(existing.starts))} ${spread(existing.starts, ms)}`,
    `<= ${ms(GOALS.startMs)} (existing)`,
  );
  const ratio = ({ starts, bareStarts }: Figures) => `${median(starts.map((start, i) => start / bareStarts[i]!)).toFixed(1)}x`;
  row(`  Node alone starting and printing, before each (median)`, ms(median(fresh.bareStarts)), ms(median(existing.bareStarts)), '');
  row(`  the start as a multiple of Node's own (median)`, ratio(fresh), ratio(existing), '');
  row(
    `resident memory idle, ${IDLE_AFTER_MS / 1000} s after start (median)`,
    `${mb(median(fresh.idle))} ${spread(fresh.idle, mb)}`,
    `${mb(median(existing.idle))} ${spread(existing.idle, mb)}`,
    `<= ${GOALS.idleMb} MB`,
  );
  const kinds = ({ idleKinds }: Figures) => `${mb(idleKinds.anonymous)} + ${mb(idleKinds.files)}`;
  row('  of it, its own + files mapped (Node, libduckdb)', kinds(fresh), kinds(existing), '');
  row('peak while the million-row result runs, caches, shows', mbIfAny(fresh.peak), mbIfAny(existing.peak), `<= ${GOALS.peakMb} MB`);
  row(
    `${AFTER_BROWSING_MS / 1000} s after browsing it, nothing else open`,
    mbIfAny(fresh.after),
    mbIfAny(existing.after),
    `<= ${GOALS.afterMb} MB`,
  );
}

const root = mkdtempSync(join(tmpdir(), 'querydesk-footprint-bench-'));
const browser = await chromium.launch(
  existsSync('/usr/bin/chromium') && !process.env.PLAYWRIGHT_BROWSERS_PATH
    ? { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] }
    : {},
);
try {
  if (ONLY !== 'fuzz') {
    const starts = ONLY === 'browsing' ? 1 : STARTS;
    let made = 0;
    const fresh = await measure(browser, 'fresh', () => join(root, `fresh-${made++}`), starts, ONLY === '');
    // the last fresh folder has been used once: its next starts are those of an existing one
    const used = join(root, `fresh-${made - 1}`);
    const existing = await measure(browser, 'existing', () => used, starts, ONLY !== 'starts');
    print(fresh, existing);
    console.log('');
  }
  if (ONLY === '' || ONLY === 'fuzz') {
    const floor = await measureFuzzFloor({ requests: FUZZ_REQUESTS, seed: 1 });
    if (floor.failed) throw new Error('the fuzz run met a 5xx or a crash: its memory is not the service floor');
  }
  if (ONLY === '') recording.save();
} finally {
  await browser.close();
  rmSync(root, { recursive: true, force: true });
}
