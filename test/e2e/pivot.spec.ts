import { DuckDBInstance } from '@duckdb/node-api';
import { expect, type Locator, type Page } from '@playwright/test';
import { openQuery, runQuery, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// A pivot of a cached result by two columns with two measures: groups fold and unfold, the table
// is saved as Parquet as shown, a group opens its rows in the grid, and the pivot's settings come back with the query after a restart.
// Demo trades has 5,000 rows: each of its 5 chains holds 1,000, and each chain has all 6 tokens.

function settings(page: Page): Locator {
  return page.getByRole('form', { name: 'Pivot settings' });
}

/** A button of the result's modes (All rows, Sample, Chart, Profile, Pivot). */
function mode(page: Page, name: string): Locator {
  return page.getByRole('group', { name: 'Result view' }).getByRole('button', { name, exact: true });
}

function pivotRows(page: Page): Locator {
  return page.getByRole('table', { name: 'Pivot of the result' }).locator('tbody tr');
}

async function expectPivot(page: Page): Promise<void> {
  // the grand total, 5 chains and 6 tokens under each
  await expect(pivotRows(page)).toHaveCount(1 + 5 + 5 * 6);
  await expect(pivotRows(page).first()).toContainText('Total');
  await expect(pivotRows(page).first()).toContainText('5,000');
  for (const chain of ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon']) {
    await expect(pivotRows(page).filter({ has: page.getByRole('button', { name: `Fold ${chain}`, exact: true }) })).toContainText('1,000');
  }
}

test('pivots a result by two columns, folds a group, saves it as Parquet, drills into its rows, keeps it after a restart and a cleared cache', async ({
  page,
  ownHost,
}) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  await runQuery(page, ownHost.url(), 'Demo trades');
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });

  await mode(page, 'Pivot').click();
  const form = settings(page);
  await expect(form.getByLabel('Row group 1', { exact: true })).toHaveValue('chain');
  await form.getByRole('button', { name: '+ Row' }).click();
  await form.getByLabel('Row group 2', { exact: true }).selectOption('token');
  await form.getByRole('button', { name: '+ Measure' }).click();
  await form.getByLabel('Measure 2', { exact: true }).selectOption('sum');
  await form.getByLabel('Measure 2 of').selectOption('amount_usd');
  await form.getByLabel('Sort groups by').selectOption({ label: 'measure 2 (sum), largest first' });
  await form.getByRole('button', { name: 'Pivot', exact: true }).click();
  await expectPivot(page);
  const table = page.getByRole('table', { name: 'Pivot of the result' });
  await expect(table.getByRole('columnheader')).toHaveText(['chain › token', 'Rows', 'Count', 'Sum of amount_usd']);

  // Folding a chain hides its tokens; unfolding brings them back.
  await table.getByRole('button', { name: 'Fold base' }).click();
  await expect(pivotRows(page)).toHaveCount(1 + 5 + 4 * 6);

  // Saved as Parquet, the table is as shown: base's tokens folded away, each value typed.
  const downloading = page.waitForEvent('download');
  await form.getByRole('button', { name: 'Save as Parquet' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^pivot-.+\.parquet$/);
  await expect(form.getByRole('status')).toContainText('Saved 30 groups as Parquet.');
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const file = `read_parquet('${(await download.path())!.replaceAll("'", "''")}')`;
  const types = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${file}`)).getRows().map((row) => `${row[0]} ${row[1]}`);
  expect(types.slice(0, 5)).toEqual(['Level INTEGER', 'chain VARCHAR', 'token VARCHAR', 'Rows BIGINT', 'Count BIGINT']);
  expect(types[5]).toMatch(/^Sum of amount_usd (DOUBLE|DECIMAL)/);
  const rows = (await connection.runAndReadAll(`SELECT "Level", chain, token, "Rows" FROM ${file}`)).getRows();
  connection.closeSync();
  expect(rows).toHaveLength(30);
  expect(rows[0]).toEqual([0, null, null, 5000n]);
  expect(rows.filter((row) => row[1] === 'base')).toEqual([[1, 'base', null, 1000n]]);
  await table.getByRole('button', { name: 'Unfold base' }).click();
  await expect(pivotRows(page)).toHaveCount(1 + 5 + 5 * 6);

  // A group's rows, in the grid, with its condition as the filter.
  await table.getByRole('button', { name: 'Rows of base' }).click();
  await expect(mode(page, 'All rows')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('textbox', { name: 'Filter rows' })).toHaveValue("chain = 'base'");
  await expect(page.getByLabel('Result summary').getByLabel('Rows shown')).toContainText('1,000 of 5,000 rows');

  // The filter applies before grouping: the pivot now holds base alone.
  await mode(page, 'Pivot').click();
  await settings(page).getByRole('button', { name: 'Pivot', exact: true }).click();
  await expect(pivotRows(page)).toHaveCount(1 + 1 + 6);
  await mode(page, 'All rows').click();
  await page.getByRole('textbox', { name: 'Filter rows' }).fill('');
  await page.getByRole('textbox', { name: 'Filter rows' }).press('Enter');
  await expect(page.getByLabel('Result summary').getByLabel('Rows shown')).toContainText('5,000');
  await mode(page, 'Pivot').click();
  await expectPivot(page);

  // After a restart the query opens on its pivot, computed again from the cache.
  expect(problems).toEqual([]);
  await ownHost.restart();
  await page.goto(ownHost.url());
  problems.splice(0);
  await openQuery(page, 'Demo trades');
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });
  await expect(mode(page, 'Pivot')).toHaveAttribute('aria-pressed', 'true');
  await expect(settings(page).getByLabel('Row group 2', { exact: true })).toHaveValue('token');
  await expectPivot(page);

  // With the cache cleared, the pivot says so and brings the result back in at a click.
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(dialog.getByTestId('cache-usage')).toContainText('0 results');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const wait = page.getByRole('status', { name: 'Cache for this view' });
  await expect(wait).toContainText('this result is not in the cache');
  await expect(page.getByLabel('Result summary')).not.toContainText('from cache');
  await wait.getByRole('button', { name: 'Download it into the cache' }).click();
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });
  await settings(page).getByRole('button', { name: 'Pivot', exact: true }).click();
  await expectPivot(page);
  expect(problems).toEqual([]);
});
