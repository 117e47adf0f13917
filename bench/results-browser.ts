// `npm run bench:browser`: the million-row demo result in Chromium through the browser host, as a
// person meets it: from Run to the first rows shown, and from a jump to row 900,000 to the rows
// shown there; the jumps are timed while rows come from the service and again from the cache.
// Needs a build (`npm run build`) and Chromium.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Locator, type Page } from '@playwright/test';
import { webHostCommand } from '../build/web-host.ts';
import { recordPrinted } from './results-file.ts';
import { median } from './timing.ts';

// Everything printed from here on is this run's section of bench/RESULTS.md, written once it ends well.
const recording = recordPrinted('bench:browser');

const RUNS = 3;
const JUMPS = 5;
const TARGET_ROW = 900_000;
const TOTAL_ROWS = 1_000_000;

const dir = mkdtempSync(join(tmpdir(), 'querydesk-browser-bench-'));
const command = webHostCommand(['--port', '0', '--data-dir', dir, '--no-build']);
const host = spawn(process.execPath, command.args, { stdio: ['ignore', 'pipe', 'inherit'], env: command.env });

function hostUrl(): Promise<string> {
  return new Promise((resolve, reject) => {
    host.once('exit', (code) => reject(new Error(`the browser host exited (code ${code})`)));
    createInterface({ input: host.stdout! }).on('line', (line) => {
      const match = /running at (http\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
  });
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;

/** A cell of the `id` column at this row, drawn with its value. */
function idCell(grid: Locator, row: number): Locator {
  return grid.locator(`[role="row"][row-index="${row}"] [role="gridcell"][col-id="c0"]`).filter({ hasText: String(row) });
}

/** Runs the query and answers the milliseconds from the click to Completed and to the first rows. */
async function runOnce(page: Page): Promise<{ completed: number; firstRows: number }> {
  const grid = page.getByRole('grid');
  const start = performance.now();
  await page.getByRole('button', { name: /^Run/ }).click();
  // the last run's rows and state go first, so neither is taken for this run's
  await grid.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.getByRole('status', { name: 'Execution state' }).getByText('Completed').waitFor({ timeout: 120_000 });
  const completed = performance.now() - start;
  await idCell(grid, 0).waitFor({ timeout: 60_000 });
  return { completed, firstRows: performance.now() - start };
}

/** Moves the scrollbar to where `row` is, as a drag of the thumb would, and waits for its cells. */
async function jump(page: Page, row: number): Promise<number> {
  const grid = page.getByRole('grid');
  const start = performance.now();
  // the grid's own vertical scrollbar, as a drag of its thumb moves it
  await page.locator('.ag-body-vertical-scroll-viewport').evaluate((scrollbar, fraction) => {
    scrollbar.scrollTop = fraction * (scrollbar.scrollHeight - scrollbar.clientHeight);
  }, row / TOTAL_ROWS);
  await grid
    .locator('[role="row"][row-index] [role="gridcell"][col-id="c0"]')
    .filter({ hasText: /^9\d{5}$/ })
    .first()
    .waitFor({ timeout: 60_000 });
  return performance.now() - start;
}

async function jumps(page: Page, offset: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < JUMPS; i++) {
    await jump(page, 0).catch(() => undefined);
    await idCell(page.getByRole('grid'), 0).waitFor({ timeout: 60_000 });
    // a different place each time, so no jump lands on blocks the grid already holds
    times.push(await jump(page, TARGET_ROW + offset + i * 5_000));
  }
  return times;
}

const browser = await chromium.launch(
  existsSync('/usr/bin/chromium') && !process.env.PLAYWRIGHT_BROWSERS_PATH
    ? { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] }
    : {},
);
try {
  const url = await hostUrl();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill('One million rows');
  await page
    .getByRole('listbox', { name: 'Queries' })
    .getByRole('option', { name: /^One million rows/ })
    .click();

  const runs: { completed: number; firstRows: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await runOnce(page));
    // the rows of the next run should not race the last one's download into the cache
    await page
      .getByLabel('Result summary')
      .getByText(/from cache|page by page|caching failed/)
      .waitFor({ timeout: 300_000 });
  }
  const fromCache = await jumps(page, 0);

  // A fresh run, jumped through before its download finishes: rows from the service.
  await page.getByRole('button', { name: /^Run/ }).click();
  await page.getByRole('status', { name: 'Execution state' }).getByText('Completed').waitFor({ timeout: 120_000 });
  const cancel = page.getByLabel('Cache download').getByRole('button', { name: 'Cancel' });
  await cancel.click({ timeout: 10_000 }).catch(() => undefined);
  const summary = (await page.getByLabel('Result summary').textContent()) ?? '';
  const serviceLabel = summary.includes('from cache') ? 'cache: its download ended before Cancel' : 'service';
  const fromService = await jumps(page, 2_500);

  console.log(`Million-row result in Chromium through the browser host (median of ${RUNS} runs, ${JUMPS} jumps each)`);
  console.log(`  Run clicked → Completed shown              ${ms(median(runs.map((r) => r.completed))).padStart(10)}`);
  console.log(`  Run clicked → first rows shown             ${ms(median(runs.map((r) => r.firstRows))).padStart(10)}`);
  console.log(`  Completed → first rows shown               ${ms(median(runs.map((r) => r.firstRows - r.completed))).padStart(10)}`);
  console.log(
    `  Jump to row ${TARGET_ROW.toLocaleString('en')} → rows shown (cache)    ${ms(median(fromCache)).padStart(10)}   (all: ${fromCache.map(ms).join(', ')})`,
  );
  console.log(
    `  Jump to row ${TARGET_ROW.toLocaleString('en')} → rows shown (${serviceLabel})  ${ms(median(fromService)).padStart(10)}   (all: ${fromService.map(ms).join(', ')})`,
  );
  recording.save();
} finally {
  await browser.close();
  host.kill('SIGTERM');
  await new Promise((resolve) => host.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
