import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect } from '@playwright/test';
import { cellOf, loadedCellText, runQuery, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// A result's view exported as Parquet, as an analyst does it: the format picked in the Export
// control, the file read back with DuckDB, its rows in the view's order and its columns typed.

test('exports the filtered, sorted view as Parquet with its types', async ({ page, ownHost }) => {
  const problems = watchProblems(page);
  await runQuery(page, ownHost.url(), 'Demo trades');
  const grid = page.getByRole('grid');

  const filter = page.getByRole('textbox', { name: 'Filter rows' });
  await filter.fill("chain = 'base'");
  await filter.press('Enter');
  await expect(page.getByLabel('Result summary').getByLabel('Rows shown')).toContainText('1,000 of 5,000 rows');
  const unsortedFirst = await loadedCellText(grid, 'trade_id', 0);
  const firstCell = await cellOf(grid, 'trade_id', 0);
  const idHeader = grid.getByRole('columnheader', { name: /^trade_id/ });
  await idHeader.locator('.ag-header-cell-label').click();
  await idHeader.locator('.ag-header-cell-label').click();
  await expect(idHeader).toHaveAttribute('aria-sort', 'descending');
  // the header turns at once; the sorted rows come after, the ascending ones perhaps first: wait for
  // rows in descending order that are not the unsorted ones
  const secondCell = await cellOf(grid, 'trade_id', 1);
  const descending = async () => {
    const [first, second] = [await firstCell.textContent(), await secondCell.textContent()];
    return first !== unsortedFirst && Number(first) > Number(second);
  };
  await expect.poll(descending).toBe(true);
  const firstId = Number(await firstCell.textContent());

  await page.getByText('Export CSV', { exact: true }).click();
  await page.getByRole('group', { name: 'Export CSV' }).getByLabel('Parquet').check();
  await expect(page.getByText('Export Parquet', { exact: true })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Current view/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^demo-trades_\d{4}-\d{2}-\d{2}T\d{4}_view\.parquet$/);
  await expect(page.getByRole('status', { name: 'Export progress' })).toContainText('Exported 1,000 rows');

  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const file = `read_parquet('${(await download.path())!.replaceAll("'", "''")}')`;
  const types = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${file}`)).getRows().map((row) => `${row[0]} ${row[1]}`);
  expect(types).toEqual(
    expect.arrayContaining(['trade_id BIGINT', 'block_time TIMESTAMP', 'amount DECIMAL(18,6)', 'raw_amount DECIMAL(20,0)']),
  );
  const rows = (await connection.runAndReadAll(`SELECT trade_id, chain FROM ${file}`)).getRows();
  expect(rows).toHaveLength(1000);
  expect(new Set(rows.map((row) => row[1]))).toEqual(new Set(['base']));
  const ids = rows.map((row) => Number(row[0]));
  expect(ids[0]).toBe(firstId);
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  connection.closeSync();
  expect(problems).toEqual([]);
});

test('exports CSV as the grid shows it, times as spreadsheets read them, or in the service’s text when asked', async ({
  page,
  ownHost,
}) => {
  const problems = watchProblems(page);
  await runQuery(page, ownHost.url(), 'Demo trades');
  const grid = page.getByRole('grid');
  const amountCell = await cellOf(grid, 'amount', 0);
  await expect(amountCell).toHaveText(/\d/);
  const amountShown = (await amountCell.textContent())!.trim();

  const exportCsv = async () => {
    await page.getByText('Export CSV', { exact: true }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Whole result' }).click();
    return readFileSync((await (await downloading).path())!, 'utf8').split('\n');
  };
  const [header, first] = await exportCsv();
  expect(header).toBe('trade_id,block_time,chain,token,trader,amount,amount_usd,is_buy,route,raw_amount');
  const fields = first!.split(',');
  expect(fields[1]).toBe('2024-01-01 00:08:37.000');
  expect(fields[5]).toMatch(/^\d+\.\d{6}$/);
  expect(fields[5]).toBe(amountShown.replaceAll(',', ''));

  await page.getByText('Export CSV', { exact: true }).click();
  await page.getByLabel('Keep the service’s text', { exact: false }).check();
  await page.keyboard.press('Escape');
  const [, asSent] = await exportCsv();
  expect(asSent!.split(',')[1]).toBe('2024-01-01 00:08:37.000 UTC');
  expect(problems).toEqual([]);
});
