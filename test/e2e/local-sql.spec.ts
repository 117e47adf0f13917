import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { cellOf, executionState, loadedCellText, openQuery, replaceSql, useSessionAccount, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';
import { service } from './processes.ts';

// Local SQL with the service gone: two saved queries' results, cached while it answered, joined on
// a key on this computer; a mistake shown at its place in the SQL, and a write refused.

const summary = (page: Page) => page.getByLabel('Result summary');

async function runCached(page: Page, name: string): Promise<void> {
  await openQuery(page, name);
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expect(summary(page)).toContainText('from cache, fetched', { timeout: 30_000 });
}

test('joins two cached results offline, with the service stopped', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  const dataDir = await mkdtemp(join(tmpdir(), 'querydesk-local-sql-'));
  const started = await service(dataDir, 'The service of this test');
  try {
    await useSessionAccount(page, 'Local SQL source', started.match[1]!, started.match[2]!);
    await runCached(page, 'Demo trades');
    await runCached(page, 'Daily volume by chain');
    started.child.kill('SIGTERM');
    await new Promise((resolve) => started.child.once('exit', resolve));

    await page.keyboard.press('ControlOrMeta+K');
    await page.getByRole('dialog', { name: 'Commands' }).getByRole('combobox').fill('New local SQL');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Local SQL 1' })).toBeVisible();

    // the side panel: each cached result as a table, by its query and run, with its aliases
    const tables = page.getByRole('complementary', { name: 'Cached results' });
    await expect(tables.locator('summary')).toHaveCount(2);
    await expect(tables.locator('summary').nth(0)).toContainText(/q_\d+_run_\d{8}_\d{4}/);
    await tables.locator('summary').nth(0).click();
    await expect(tables).toContainText('daily_volume_by_chain');

    // each day's trades, counted again from the trades themselves: the two results agree
    const editor = page.getByRole('textbox', { name: 'Local SQL of Local SQL 1' });
    await replaceSql(
      page,
      editor,
      `SELECT v.day, v.trades, count(t.trade_id) AS matched
FROM daily_volume_by_chain AS v
JOIN demo_trades AS t ON date_trunc('day', t.block_time) = v.day AND t.chain = 'ethereum' AND t.amount_usd >= 1000
GROUP BY v.day, v.trades
ORDER BY v.day`,
    );
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(executionState(page)).toHaveText('Completed', { timeout: 30_000 });
    const grid = page.getByRole('grid');
    for (const row of [0, 1]) {
      const trades = await loadedCellText(grid, 'trades', row);
      expect(Number(trades)).toBeGreaterThan(0);
      await expect(await cellOf(grid, 'matched', row)).toHaveText(trades);
    }
    await expect(summary(page)).toContainText('from cache');

    // a mistake: said at its line and column, and shown in the SQL
    await replaceSql(page, editor, 'SELECT day,\n  no_such_column\nFROM daily_volume_by_chain');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionState(page)).toHaveText('Failed');
    const problem = page.getByRole('alert').filter({ hasText: 'no_such_column' });
    await expect(problem).toContainText('at line 2, column 3');
    await problem.getByRole('button', { name: 'Show in the SQL' }).click();
    await expect(editor).toBeFocused();

    // a write: refused, and the cached result is as it was
    await replaceSql(page, editor, 'DELETE FROM demo_trades');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'DELETE is refused' })).toBeVisible();
    await replaceSql(page, editor, 'SELECT count(*) AS trades FROM demo_trades');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(await cellOf(grid, 'trades', 0)).toHaveText('5000');

    // a statement too long to wait for: stopped by Escape
    await replaceSql(page, editor, 'SELECT sum(hash(i)) AS h FROM range(100000000000) AS t(i) JOIN demo_trades ON true');
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionState(page)).toHaveText('Running');
    await page.keyboard.press('Escape');
    await expect(executionState(page)).toHaveText('Cancelled');
    expect(problems).toEqual([]);
  } finally {
    started.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a local SQL tab comes back after a restart with its SQL and its answer', async ({ page, ownHost }) => {
  test.setTimeout(120_000);
  await page.goto(ownHost.url());
  await runCached(page, 'Demo trades');
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('dialog', { name: 'Commands' }).getByRole('combobox').fill('New local SQL');
  await page.keyboard.press('Enter');
  const sql = 'SELECT chain, count(*) AS trades FROM demo_trades GROUP BY chain ORDER BY chain';
  await replaceSql(page, page.getByRole('textbox', { name: 'Local SQL of Local SQL 1' }), sql);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed', { timeout: 30_000 });
  await expect(summary(page)).toContainText('5 rows');
  // the page again first: what it shows now comes from main
  await page.reload();
  await expect(summary(page)).toContainText('5 rows');

  await ownHost.restart();
  await page.goto(ownHost.url());
  await expect(page.getByRole('heading', { level: 1, name: 'Local SQL 1' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Local SQL of Local SQL 1' })).toContainText('GROUP BY chain');
  await expect(summary(page)).toContainText('5 rows');
  await expect(await cellOf(page.getByRole('grid'), 'trades', 0)).toHaveText('1000');

  // a CSV file attached as a table, joined with a cached result
  await page
    .getByLabel('Attach a CSV file…')
    .setInputFiles({ name: 'Chain Labels.csv', mimeType: 'text/csv', buffer: Buffer.from('chain,label\nbase,L2\nethereum,L1\n') });
  await expect(page.getByRole('complementary', { name: 'Cached results' }).getByText('chain_labels')).toBeVisible();
  await replaceSql(
    page,
    page.getByRole('textbox', { name: 'Local SQL of Local SQL 1' }),
    'SELECT c.label, count(*) AS trades FROM demo_trades AS t JOIN chain_labels AS c USING (chain) GROUP BY c.label ORDER BY c.label',
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(summary(page)).toContainText('2 rows');
  await expect(await cellOf(page.getByRole('grid'), 'label', 1)).toHaveText('L2');
});
