import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import {
  appUrl,
  cellOf,
  executionState,
  openQuery,
  replaceSql,
  runQuery,
  scrollGrid,
  useSessionAccount,
  watchProblems,
} from './helpers.ts';
import { test } from './own-host.ts';
import { service } from './processes.ts';

// Browsing a result as an analyst does: scroll, sort, filter, choose columns, sample, chart, copy,
// export; through the browser host, its cache and the embedded service.

async function openAndRun(page: Page, name: string, url = appUrl()): Promise<Locator> {
  await runQuery(page, url, name);
  return page.getByRole('grid');
}

function summary(page: Page): Locator {
  return page.getByLabel('Result summary');
}

// on a host of its own: the sort, filter and columns it leaves are kept with the query's view
test('sorts, filters and narrows a million rows, then exports the view', async ({ page, ownHost }) => {
  // a million rows run, are sorted, filtered and exported: on 2 busy cores this nears a minute
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  const grid = await openAndRun(page, 'One million rows', ownHost.url());
  await expect(summary(page)).toContainText('1,000,000 rows');
  await expect(grid.getByRole('columnheader', { name: /^amount_usd/ })).toContainText('double');

  // Far down, then back to the top.
  await scrollGrid(page, grid, 40_000_000);
  await expect(await cellOf(grid, 'id', 999_999)).toHaveText('999999');
  await scrollGrid(page, grid, -40_000_000);
  await expect(await cellOf(grid, 'id', 0)).toHaveText('0');

  // A click on a header sorts ascending, a second one descending.
  const idHeader = grid.getByRole('columnheader', { name: /^id/ });
  await idHeader.locator('.ag-header-cell-label').click();
  await expect(idHeader).toHaveAttribute('aria-sort', 'ascending');
  await idHeader.locator('.ag-header-cell-label').click();
  await expect(idHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(await cellOf(grid, 'id', 0)).toHaveText('999999');

  // Shift adds a second sort: chain first would need it first; here it only orders ties.
  const chainHeader = grid.getByRole('columnheader', { name: /^chain/ });
  await chainHeader.locator('.ag-header-cell-label').click({ modifiers: ['Shift'] });
  await expect(chainHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(await cellOf(grid, 'id', 0)).toHaveText('999999');

  // A typed filter, checked as it is typed: a mistake shows where it is before anything is sent.
  const filter = page.getByRole('textbox', { name: 'Filter rows' });
  await filter.fill('bucket = = 5');
  const problem = page.getByRole('alert').filter({ hasText: 'position 10' });
  await expect(problem).toContainText('expected a value');
  await filter.fill('buckt = 5');
  await expect(page.getByRole('alert').filter({ hasText: 'unknown column "buckt"' })).toContainText('position 1');

  await filter.fill("bucket = 5 AND chain = 'base'");
  await expect(page.getByRole('alert')).toHaveCount(0);
  await filter.press('Enter');
  const shown = summary(page).getByLabel('Rows shown');
  await expect(shown).toContainText('of 1,000,000 rows');
  const filtered = Number((await shown.textContent())!.split(' of ')[0]!.replaceAll(',', ''));
  expect(filtered).toBeGreaterThan(0);
  expect(filtered).toBeLessThan(10_000);
  await expect(await cellOf(grid, 'bucket', 0)).toHaveText('5');
  await expect(await cellOf(grid, 'chain', 0)).toHaveText('base');

  // Hide a column: the grid asks for the others only.
  await page.getByText(/^Columns/).click();
  await page.getByRole('group', { name: 'Columns to show' }).getByLabel('wallet').uncheck();
  await expect(grid.getByRole('columnheader', { name: /^wallet/ })).toHaveCount(0);
  await expect(summary(page)).toContainText('7 columns of 8');
  await expect(await cellOf(grid, 'bucket', 0)).toHaveText('5');
  await page.getByText(/^Columns/).click();

  // The view as a CSV download: its rows, its columns, its order.
  await page.getByText('Export CSV', { exact: true }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Current view/ }).click();
  const download = await downloading;
  // named after the query and when its run ended
  expect(download.suggestedFilename()).toMatch(/^one-million-rows_\d{4}-\d{2}-\d{2}T\d{4}_view\.csv$/);
  const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\n');
  expect(csv[0]).toBe('id,block_time,chain,amount_usd,fee,is_inbound,bucket');
  expect(csv.length - 1).toBe(filtered);
  expect(csv[1]!.split(',')[2]).toBe('base');
  const ids = csv.slice(1).map((line) => Number(line.split(',')[0]));
  expect(ids[0]).toBeGreaterThan(ids[1]!);
  await expect(page.getByRole('status', { name: 'Export progress' })).toContainText(`Exported ${filtered.toLocaleString('en-US')} rows`);
  expect(problems).toEqual([]);
});

test('samples, charts and copies a cached result', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = watchProblems(page);
  const grid = await openAndRun(page, 'Demo trades');
  // The whole result lands in the cache in the background.
  await expect(summary(page)).toContainText('from cache, fetched', { timeout: 30_000 });

  // Copy: the clicked cell, with its header, as TSV.
  await (await cellOf(grid, 'trade_id', 2)).click();
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  const copied = String(await page.evaluate('navigator.clipboard.readText()'));
  const [headers, row] = copied.split('\n');
  expect(headers!.split('\t')[0]).toBe('trade_id');
  expect(row!.split('\t')[0]).toBe('3');

  // A sample: random rows in a grid of its own, in the rows' sort, drawn again on request.
  const tradeHeader = grid.getByRole('columnheader', { name: /^trade_id/ });
  await tradeHeader.locator('.ag-header-cell-label').click();
  await tradeHeader.locator('.ag-header-cell-label').click();
  await expect(tradeHeader).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('button', { name: 'Sample', exact: true }).click();
  await page.getByLabel('Rows to draw').fill('50');
  await page.getByRole('button', { name: 'Draw sample' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drawn at random' })).toContainText(
    '50 rows drawn at random from 5,000 rows of the whole result (from the cache), sorted as the rows are',
  );
  const sampleGrid = page.getByRole('grid').locator('visible=true');
  await expect(sampleGrid).toHaveAttribute('aria-rowcount', '51');
  await expect(sampleGrid.getByRole('columnheader', { name: /^trade_id/ })).toHaveAttribute('aria-sort', 'descending');
  const firstIds = await Promise.all(
    [0, 1, 2, 3].map(async (row) => Number(await (await cellOf(sampleGrid, 'trade_id', row)).textContent())),
  );
  expect(firstIds).toEqual([...firstIds].sort((a, b) => b - a));
  await page.getByRole('button', { name: 'Resample' }).click();
  await expect(sampleGrid).toHaveAttribute('aria-rowcount', '51');

  // A chart from the cache: a time column on x gives a line by default.
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const settings = page.getByRole('form', { name: 'Chart settings' });
  await expect(settings.getByLabel('Type')).toHaveValue('line');
  await expect(settings.getByLabel('X axis')).toHaveValue('block_time');
  await settings.getByRole('button', { name: 'Draw' }).click();
  const figure = page.locator('figure');
  await expect(figure.locator('canvas')).toBeVisible();
  await expect(figure.locator('figcaption')).toContainText('line chart · x: block_time');
  await expect(figure.locator('figcaption')).toContainText('y: sum(');

  await settings.getByLabel('Type').selectOption('bar');
  await settings.getByLabel('X axis').selectOption('chain');
  await settings.getByLabel('Aggregation').selectOption('count');
  await settings.getByRole('button', { name: 'Draw' }).click();
  await expect(figure.locator('figcaption')).toContainText('bar chart · x: chain · y: count(');

  const saving = page.waitForEvent('download');
  await settings.getByRole('button', { name: 'Save as PNG' }).click();
  const png = await readFile((await (await saving).path())!);
  expect(png.subarray(1, 4).toString()).toBe('PNG');

  // and onto the clipboard, as an image
  await settings.getByRole('button', { name: 'Copy as image' }).click();
  await expect(settings.getByRole('status')).toHaveText('Chart copied as an image.');
  const types = await page.evaluate('navigator.clipboard.read().then((items) => items.flatMap((item) => item.types))');
  expect(types).toEqual(['image/png']);
  // the mode is kept with the query: left on its rows for the tests after this one on this host
  await page.getByRole('button', { name: 'All rows', exact: true }).click();
  expect(problems).toEqual([]);
});

test('says offline as a download into the cache breaks off, and goes on by itself when the service is back', async ({ page }) => {
  test.setTimeout(420_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'querydesk-broken-off-'));
  let started = await service(dataDir, 'The service of this test');
  const [url, key] = [started.match[1]!, started.match[2]!];
  try {
    await useSessionAccount(page, 'Broken off', url, key);

    await openQuery(page, 'Demo trades');
    // large enough that the download is still under way when the service is killed
    await replaceSql(
      page,
      page.getByRole('textbox', { name: 'SQL of Demo trades' }),
      'SELECT range AS n, md5(CAST(range AS VARCHAR)) AS h FROM range(1500000)',
    );
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionState(page)).toHaveText('Completed', { timeout: 60_000 });
    // 3,000,000 datapoints, above the size that asks first on an account of another service
    await page.getByRole('region', { name: 'Result not read yet' }).getByRole('button', { name: 'Read the result…' }).click();
    await page.getByRole('dialog', { name: 'Read 3,000,000 datapoints?' }).getByRole('button', { name: 'Read', exact: true }).click();
    await expect(summary(page).getByLabel('Cache download')).toBeVisible({ timeout: 30_000 });

    started.child.kill('SIGKILL');
    await new Promise((resolve) => started.child.once('exit', resolve));
    await expect(page.getByRole('status', { name: /^Service: Offline/ })).toBeVisible();
    await expect(summary(page)).toContainText(/caching paused at \d+%: it goes on when the service answers again/, { timeout: 60_000 });
    // a sorted view needs every row, so only the service can give it: its rows are said not loaded, never blank
    const grid = page.getByRole('grid');
    const header = grid.getByRole('columnheader', { name: /^n/ });
    await header.locator('.ag-header-cell-label').click();
    await header.locator('.ag-header-cell-label').click();
    await expect(await cellOf(grid, 'n', 0)).toHaveText('not loaded', { timeout: 60_000 });
    await expect(page.getByText(/they load when it answers/)).toBeVisible();

    // with the same key: the service keeps only hashes of keys, so it makes a new demo key at each start unless given one
    started = await service(dataDir, 'The service of this test, again', ['--demo-api-key', key], Number(new URL(url).port));
    await expect(summary(page)).toContainText('from cache, fetched', { timeout: 240_000 });
    await expect(page.getByRole('status', { name: 'Service: Online' })).toBeVisible();
    // and those rows load by themselves, sorted, with no click
    await expect(await cellOf(grid, 'n', 0)).toHaveText('1499999');
    await expect(page.getByText(/they load when it answers/)).toHaveCount(0);
  } finally {
    started.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('keeps browsing a cached result when its service is gone', async ({ page }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'querydesk-offline-'));
  const started = await service(dataDir, 'The service of this test');
  const own = { child: started.child, url: started.match[1]!, key: started.match[2]! };
  try {
    await useSessionAccount(page, 'Soon offline', own.url, own.key);

    await openQuery(page, 'Demo trades');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
    await expect(summary(page)).toContainText('from cache, fetched', { timeout: 30_000 });

    own.child.kill('SIGTERM');
    await new Promise((resolve) => own.child.once('exit', resolve));

    // Sorted, filtered and sampled from the cache alone.
    const grid = page.getByRole('grid');
    const header = grid.getByRole('columnheader', { name: /^trade_id/ });
    await header.locator('.ag-header-cell-label').click();
    await header.locator('.ag-header-cell-label').click();
    await expect(await cellOf(grid, 'trade_id', 0)).toHaveText('5000');
    const filter = page.getByRole('textbox', { name: 'Filter rows' });
    await filter.fill("chain = 'base'");
    await filter.press('Enter');
    await expect(summary(page).getByLabel('Rows shown')).toHaveText('1,000 of 5,000 rows');
    await expect(await cellOf(grid, 'chain', 0)).toHaveText('base');
    await expect(summary(page)).toContainText('from cache, fetched');

    await page.getByRole('button', { name: 'Sample', exact: true }).click();
    await page.getByLabel('Rows to draw').fill('20');
    await page.getByRole('button', { name: 'Draw sample' }).click();
    const drawn = page.getByRole('status').filter({ hasText: 'drawn at random' });
    await expect(drawn).toContainText('20 rows drawn at random from 1,000 rows of the filtered view (from the cache)');
    await expect(await cellOf(page.getByRole('grid').locator('visible=true'), 'chain', 0)).toHaveText('base');
  } finally {
    own.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
});
