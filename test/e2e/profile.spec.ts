import { expect } from '@playwright/test';
import { cellOf, executionState, openQuery, runQuery, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// A column's profile, from the cached result: nulls, distinct values, range, top values and a
// histogram; over the rows the filters let through once they are set. On a host of its own: the
// filter it sets is kept with the query's view.

test('profiles a column of the whole result, then of the filtered view', async ({ page, ownHost }) => {
  const problems = watchProblems(page);
  await runQuery(page, ownHost.url(), 'Demo trades');
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });

  // a column's menu (a right click on its header) opens its profile
  await page
    .getByRole('grid')
    .getByRole('columnheader', { name: /^route/ })
    .click({ button: 'right' });
  await page.getByRole('menu', { name: 'Column route' }).getByRole('menuitem', { name: 'Profile of route' }).click();
  await expect(page.getByRole('button', { name: 'Profile', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const picker = page.getByRole('combobox', { name: /^Column to profile/ });
  await expect(picker).toHaveValue('route');
  const route = page.getByRole('region', { name: 'Profile of route' });
  // every eleventh of the 5,000 demo trades has no route; the others have one of four
  await expect(route).toContainText('5,000 rows of the whole result');
  await expect(route.locator('dt:has-text("Nulls") + dd')).toHaveText('454 (9.1%)');
  await expect(route.locator('dt:has-text("Distinct") + dd')).toHaveText('4');
  const top = route.getByRole('table', { name: 'Most frequent values of route' }).getByRole('row');
  await expect(top).toHaveCount(4);

  await picker.selectOption({ label: 'amount_usd (double)' });
  const amount = page.getByRole('region', { name: 'Profile of amount_usd' });
  await expect(amount.getByRole('list', { name: 'Histogram of amount_usd' }).getByRole('listitem')).toHaveCount(20);
  await expect(amount.locator('dt:has-text("25% · median · 75%")')).toBeVisible();

  // back to the rows, filter them, and the profile follows
  await page.getByRole('button', { name: 'All rows', exact: true }).click();
  const filter = page.getByRole('textbox', { name: 'Filter rows' });
  await filter.fill("chain = 'base'");
  await filter.press('Enter');
  await expect(page.getByLabel('Result summary').getByLabel('Rows shown')).toHaveText('1,000 of 5,000 rows');
  // so does a cell's, and the profile follows the filter
  await (await cellOf(page.getByRole('grid'), 'chain', 0)).click({ button: 'right' });
  await page.getByRole('menu', { name: 'Cell actions' }).getByRole('menuitem', { name: 'Profile of chain' }).click();
  await expect(picker).toHaveValue('chain');
  const chain = page.getByRole('region', { name: 'Profile of chain' });
  await expect(chain).toContainText('1,000 rows of the filtered view');
  await expect(chain.getByRole('table', { name: 'Most frequent values of chain' }).getByRole('row')).toHaveText([/^base\s*1,000/]);
  expect(problems).toEqual([]);
});

test("profiles a result the cache cannot hold on the service's sample, and says so", async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await page.keyboard.press('ControlOrMeta+Comma');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByLabel('Space for cached results (GB)').fill('0');
  await settings.getByRole('button', { name: 'Apply' }).nth(2).click();
  await expect(settings.getByTestId('cache-usage')).toContainText('used of 0 B');
  await settings.getByRole('button', { name: 'Close' }).click();

  await openQuery(page, 'Demo trades');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await page.getByRole('button', { name: 'Profile', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'not in the cache' })).toContainText('larger than the cache budget');
  await page.getByRole('combobox', { name: /^Column to profile/ }).selectOption('chain');
  const chain = page.getByRole('region', { name: 'Profile of chain' });
  await expect(chain).toContainText(/A random sample of [\d,]+ rows of 5,000, drawn by the service/);
  await expect(chain.getByRole('table', { name: 'Most frequent values of chain' }).getByRole('row')).toHaveCount(5);
});
