import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { addAccount, cellOf, executionState, HAS_TEST_KEYCHAIN, loadedCellText, openQuery, replaceSql } from './helpers.ts';
import { service, stop, webHost, type Started } from './processes.ts';

// Local-first: what the analyst saw yesterday is there today without the network, and what they
// typed offline reaches the service when it answers again. The app and a remote service of the
// test's own are started, stopped and started again, as a person's laptop would.

test.skip(
  !HAS_TEST_KEYCHAIN && !process.env.CI,
  'a key that outlives a restart needs the throwaway Secret Service that `npm run test:e2e` starts',
);

function summary(page: Page): Locator {
  return page.getByLabel('Result summary');
}

function serviceState(page: Page): Locator {
  return page.getByRole('banner').getByRole('status');
}

/** What the remote service itself holds for a query, read over its HTTP API. */
async function serviceQuery(url: string, key: string, name: string): Promise<{ query_id: number; query_sql: string; version: number }> {
  const headers = { 'X-Dune-API-Key': key };
  const list = (await (await fetch(`${url}/api/v1/queries?limit=100`, { headers })).json()) as { queries: { id: number; name: string }[] };
  const id = list.queries.find((q) => q.name === name)!.id;
  return (await (await fetch(`${url}/api/v1/query/${id}`, { headers })).json()) as { query_id: number; query_sql: string; version: number };
}

async function runAndCache(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expect(summary(page)).toContainText('from cache, fetched', { timeout: 30_000 });
}

test('after a restart without the network, queries, SQL, results and views are there; an offline save arrives later', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(join(tmpdir(), 'querydesk-local-first-'));
  let remote: Started = await service(join(dir, 'remote'), 'The remote service');
  const url = remote.match[1]!;
  const key = remote.match[2]!;
  let host: Started = await webHost(join(dir, 'app'), true, 'The browser host of this test');
  const restartHost = async () => {
    await stop(host.child);
    host = await webHost(join(dir, 'app'), true, 'The browser host of this test, again');
    await page.goto(host.match[1]!);
  };
  try {
    await page.goto(host.match[1]!);
    await addAccount(page, 'Remote', url, key);
    await expect(serviceState(page)).toHaveText('Online');

    // Yesterday, online: two results, one of them sorted and filtered.
    await openQuery(page, 'Demo trades');
    await runAndCache(page);
    const grid = page.getByRole('grid');
    const header = grid.getByRole('columnheader', { name: /^trade_id/ });
    await header.locator('.ag-header-cell-label').click();
    await header.locator('.ag-header-cell-label').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const filter = page.getByRole('textbox', { name: 'Filter rows' });
    await filter.fill("chain = 'base'");
    await filter.press('Enter');
    await expect(summary(page).getByLabel('Rows shown')).toHaveText('1,000 of 5,000 rows');
    const topTrade = await loadedCellText(grid, 'trade_id', 0);
    await openQuery(page, 'Daily volume by chain');
    await runAndCache(page);
    const firstDay = await loadedCellText(page.getByRole('grid'), 'day', 0);
    // Unsaved SQL, typed and never saved.
    await openQuery(page, 'Slow checksum');
    const slowEditor = page.getByRole('textbox', { name: 'SQL of Slow checksum' });
    await replaceSql(page, slowEditor, 'SELECT 1 AS typed_but_not_saved');

    // Today: the service cannot be reached, and the app starts again.
    await stop(remote.child);
    await restartHost();
    await expect(serviceState(page)).toContainText('Offline');
    const sidebar = page.getByRole('complementary', { name: 'Queries', exact: true });
    await expect(sidebar).toContainText('Offline — as of');
    await sidebar.getByRole('button', { name: 'Try again' }).click();
    await expect(serviceState(page)).toContainText('Offline');

    await openQuery(page, 'Demo trades');
    await expect(page.getByTestId('result-origin')).toContainText('Latest result: ran');
    await expect(summary(page).getByLabel('Rows shown')).toHaveText('1,000 of 5,000 rows');
    await expect(summary(page)).toContainText('from cache, fetched');
    await expect(page.getByRole('textbox', { name: 'Filter rows' })).toHaveValue("chain = 'base'");
    await expect(page.getByRole('grid').getByRole('columnheader', { name: /^trade_id/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(await cellOf(page.getByRole('grid'), 'trade_id', 0)).toHaveText(topTrade);

    // Exported and charted from the cache alone.
    await page.getByText('Export CSV', { exact: true }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Current view/ }).click();
    const csv = (await readFile((await (await downloading).path())!, 'utf8')).trimEnd().split('\n');
    expect(csv.length - 1).toBe(1000);
    await page.getByRole('button', { name: 'Chart', exact: true }).click();
    await page.getByRole('form', { name: 'Chart settings' }).getByRole('button', { name: 'Draw' }).click();
    await expect(page.locator('figure').locator('canvas')).toBeVisible();
    await expect(page.locator('figure figcaption')).toContainText('line chart · x: block_time');

    await openQuery(page, 'Daily volume by chain');
    await expect(await cellOf(page.getByRole('grid'), 'day', 0)).toHaveText(firstDay);
    await openQuery(page, 'Slow checksum');
    await expect(slowEditor).toHaveText('SELECT 1 AS typed_but_not_saved');
    await expect(page.getByRole('heading', { level: 1, name: 'Slow checksum' })).toContainText('Edited');

    // A Run that cannot start leaves the result in place and says why.
    await openQuery(page, 'Daily volume by chain');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'the run did not start' })).toBeVisible();
    await expect(await cellOf(page.getByRole('grid'), 'day', 0)).toHaveText(firstDay);

    // An edit saved offline is kept, through another restart, until the service answers.
    const editor = page.getByRole('textbox', { name: 'SQL of Daily volume by chain' });
    await replaceSql(page, editor, "SELECT 'saved offline' AS note");
    await page.keyboard.press('ControlOrMeta+S');
    await expect(page.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();
    // A new query made offline waits on this computer.
    await page.getByRole('button', { name: 'New query' }).click();
    const dialog = page.getByRole('dialog', { name: 'New query' });
    await dialog.getByLabel('Name').fill('Made offline');
    await replaceSql(page, dialog.getByRole('textbox', { name: 'SQL of the new query' }), 'SELECT 9 AS nine');
    await dialog.getByRole('button', { name: 'Create query' }).click();
    await dialog.getByRole('button', { name: 'Create it when the service answers' }).click();
    const waiting = page.getByRole('region', { name: 'New queries not created yet' });
    await expect(waiting).toContainText('Made offline');

    await restartHost();
    await expect(waiting).toContainText('Created when Remote answers.');
    await openQuery(page, 'Daily volume by chain');
    await expect(page.getByRole('textbox', { name: 'SQL of Daily volume by chain' })).toHaveText("SELECT 'saved offline' AS note");
    await expect(page.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();

    // with the key it had: the service keeps only its hash, so it is told it again
    remote = await service(join(dir, 'remote'), 'The remote service, back', ['--demo-api-key', key], Number(new URL(url).port));
    // The OS says the network is back: main tries at once, without waiting for its next retry.
    await page.evaluate("window.dispatchEvent(new Event('online'))");
    await expect(serviceState(page)).toHaveText('Online');
    await expect(page.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeHidden();
    expect((await serviceQuery(url, key, 'Daily volume by chain')).query_sql).toBe("SELECT 'saved offline' AS note");
    await expect(waiting).toBeHidden();
    await openQuery(page, 'Made offline');
    expect((await serviceQuery(url, key, 'Made offline')).query_sql).toBe('SELECT 9 AS nine');
  } finally {
    await stop(host.child);
    await stop(remote.child);
    await rm(dir, { recursive: true, force: true });
  }
});

test('a save over a version changed elsewhere shows both and keeps mine as a copy', async ({ page }) => {
  const dir = await mkdtemp(join(tmpdir(), 'querydesk-conflict-'));
  const remote = await service(join(dir, 'remote'), 'The remote service');
  const url = remote.match[1]!;
  const key = remote.match[2]!;
  const host = await webHost(join(dir, 'app'), true, 'The browser host of this test');
  try {
    await page.goto(host.match[1]!);
    await addAccount(page, 'Shared', url, key);
    await openQuery(page, 'Demo trades');

    // Someone else saves a new version while this app still shows the one before.
    const before = await serviceQuery(url, key, 'Demo trades');
    const theirs = 'SELECT 2 AS theirs';
    const patched = await fetch(`${url}/api/v1/query/${before.query_id}`, {
      method: 'PATCH',
      headers: { 'X-Dune-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query_sql: theirs }),
    });
    expect(patched.status).toBe(200);

    const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
    await replaceSql(page, editor, 'SELECT 1 AS mine');
    await page.keyboard.press('ControlOrMeta+S');
    const conflict = page.getByRole('alert').filter({ hasText: 'changed on Shared since you edited it' });
    await expect(conflict).toBeVisible();
    expect((await serviceQuery(url, key, 'Demo trades')).query_sql).toBe(theirs);

    await conflict.getByRole('button', { name: 'Compare and choose…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your edit and the service’s version' });
    // What differs is marked by a sign and words, not by colour alone.
    await expect(dialog.getByTestId('conflict-summary')).toHaveText('+ 1 line only in yours, − 1 line only on the service.');
    await expect(dialog.getByTestId('conflict-mine').getByRole('insertion')).toHaveText('+Only in yours: SELECT 1 AS mine');
    await expect(dialog.getByTestId('conflict-theirs').getByRole('deletion')).toHaveText(`−Only on the service: ${theirs}`);
    await dialog.getByRole('button', { name: 'Copy mine to a new query' }).click();
    await expect(dialog).toBeHidden();

    await expect(page.getByRole('heading', { level: 1, name: 'Demo trades (my copy)' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'SQL of Demo trades (my copy)' })).toHaveText('SELECT 1 AS mine');
    expect((await serviceQuery(url, key, 'Demo trades (my copy)')).query_sql).toBe('SELECT 1 AS mine');
    await page
      .getByRole('listbox', { name: 'Queries' })
      .getByRole('option', { name: /^Demo trades #/ })
      .click();
    await expect(page.getByRole('textbox', { name: 'SQL of Demo trades' })).toHaveText(theirs);
    await expect(conflict).toBeHidden();
  } finally {
    await stop(host.child);
    await stop(remote.child);
    await rm(dir, { recursive: true, force: true });
  }
});
