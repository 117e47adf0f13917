import { expect, type Locator, type Page } from '@playwright/test';
import { appUrl, cellOf, scrollGrid } from './helpers.ts';
import { test } from './own-host.ts';

// A person's first minutes with Querydesk, through the browser host and the real embedded service.

async function openAndRun(page: Page, url: string, queryName: string): Promise<Locator> {
  await page.goto(url);
  const queries = page.getByRole('listbox', { name: 'Queries' });
  await expect(queries.getByRole('option').first()).toBeVisible();

  await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill(queryName.split(' ')[1] ?? queryName);
  await queries.getByRole('option', { name: new RegExp(queryName) }).click();
  await expect(page.getByRole('heading', { level: 1, name: queryName })).toBeVisible();

  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByRole('status', { name: 'Execution state' })).toHaveText('Completed', { timeout: 45_000 });
  return page.getByRole('grid');
}

test('runs the demo query and browses its rows to the last one', async ({ page, ownHost }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });

  await page.goto(ownHost.url());
  // The access token is kept for the tab, not left in the address bar.
  await expect(page).not.toHaveURL(/token=/);
  await page.reload();
  await expect(page.getByText('Local', { exact: true })).toBeVisible();

  const queries = page.getByRole('listbox', { name: 'Queries' });
  await expect(queries.getByRole('option', { name: /Demo trades/ })).toBeVisible();
  await expect(queries.getByRole('option', { name: /One million rows/ })).toBeVisible();

  // every demo query has the tag `demo`; only one has `demo tr` in its name
  await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill('demo');
  await expect(queries.getByRole('option')).toHaveCount(8);
  await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill('demo tr');
  await expect(queries.getByRole('option')).toHaveCount(1);
  await queries.getByRole('option', { name: /Demo trades/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Demo trades' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'SQL' })).toContainText('FROM range(1, 5001) AS t(i)');

  await page.getByRole('button', { name: /^Run/ }).click();
  const state = page.getByRole('status', { name: 'Execution state' });
  await expect(state).toHaveText('Completed', { timeout: 45_000 });

  await expect(page.getByLabel('Result summary')).toContainText('5,000 rows');
  await expect(page.getByLabel('Result summary')).toContainText('10 columns');
  const grid = page.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-rowcount', '5001');
  await expect(grid.getByRole('columnheader', { name: /^trade_id/ })).toContainText('bigint');

  // The first rows, with their types rendered as the service sent them.
  await expect(await cellOf(grid, 'trade_id', 0)).toHaveText('1');
  await expect(await cellOf(grid, 'chain', 0)).toHaveText('arbitrum');
  await expect(await cellOf(grid, 'is_buy', 0)).toHaveText('true');
  await expect(await cellOf(grid, 'route', 10)).toHaveText('null');

  // Far down: these rows are fetched only now, as the grid scrolls to them.
  await scrollGrid(page, grid, 200_000);
  await expect(await cellOf(grid, 'trade_id', 4999)).toHaveText('5000');
  await expect(await cellOf(grid, 'trade_id', 4993)).toHaveText('4994');
  await expect(await cellOf(grid, 'route', 4993)).toHaveText('null');

  expect(problems).toEqual([]);
});

test('scrolls a million-row result far down', async ({ page, ownHost }) => {
  const grid = await openAndRun(page, ownHost.url(), 'One million rows');
  await expect(page.getByLabel('Result summary')).toContainText('1,000,000 rows');
  await expect(grid).toHaveAttribute('aria-rowcount', '1000001');
  await expect(await cellOf(grid, 'id', 0)).toHaveText('0');

  await scrollGrid(page, grid, 40_000_000);
  await expect(await cellOf(grid, 'id', 999_999)).toHaveText('999999');
});

test('says what to do when opened without its access link', async ({ page }) => {
  const bare = new URL(appUrl());
  bare.hash = '';
  await page.goto(bare.href);
  await expect(page.getByRole('alert').filter({ hasText: 'This page needs its access link.' })).toBeVisible();
  await expect(page.getByText('Not connected')).toBeVisible();
});
