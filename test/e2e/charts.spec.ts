import { expect, type Locator, type Page } from '@playwright/test';
import { openQuery, runQuery, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// A bar chart of a result's top categories and the rest as "Other", and its settings kept with the
// query, with the result's Chart mode: back after opening another query, and after the app is restarted. On a host of its own,
// so no earlier test's chart settings are found for the query.

function chartSettings(page: Page): Locator {
  return page.getByRole('form', { name: 'Chart settings' });
}

/** The categories the caption reads out, in the chart's order. */
async function categoriesShown(page: Page): Promise<string[]> {
  const caption = page.locator('figure figcaption');
  await expect(caption).toContainText('categories: ');
  return (await caption.innerText()).split('categories: ')[1]!.split(', ');
}

async function expectRestored(page: Page): Promise<void> {
  // the result opens in Chart mode, as it was left
  await expect(page.getByRole('button', { name: 'Chart', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const settings = chartSettings(page);
  await expect(settings.getByLabel('Type')).toHaveValue('bar');
  await expect(settings.getByLabel('X axis')).toHaveValue('token');
  await expect(settings.getByRole('checkbox', { name: 'amount_usd' })).toBeChecked();
  await expect(settings.getByRole('checkbox', { name: 'amount', exact: true })).not.toBeChecked();
  await expect(settings.getByLabel('Aggregation')).toHaveValue('sum');
  await expect(settings.getByLabel('Categories')).toHaveValue('4');
  // drawn again by itself from the cached result
  await expect(page.locator('figure figcaption')).toContainText('bar chart · x: token · y: sum(amount_usd)');
  expect(await categoriesShown(page)).toHaveLength(5);
}

test('draws the top N categories plus Other, and finds the chart settings again after switching queries and a restart', async ({
  page,
  ownHost,
}) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  await runQuery(page, ownHost.url(), 'Demo trades');
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });

  // Six tokens, the four largest by their USD volume and the other two as one bar.
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const settings = chartSettings(page);
  await settings.getByLabel('Type').selectOption('bar');
  await settings.getByLabel('X axis').selectOption('token');
  await settings.getByRole('checkbox', { name: 'amount', exact: true }).uncheck();
  await settings.getByRole('checkbox', { name: 'amount_usd' }).check();
  await settings.getByLabel('Aggregation').selectOption('sum');
  await expect(settings.getByLabel('Categories')).toHaveValue('20');
  await settings.getByLabel('Categories').fill('0');
  await expect(page.getByRole('alert')).toHaveText('Categories must be a whole number from 1 to 100.');
  await expect(settings.getByRole('button', { name: 'Draw' })).toBeDisabled();
  await settings.getByLabel('Categories').fill('4');
  await settings.getByRole('button', { name: 'Draw' }).click();

  await expect(page.locator('figure figcaption')).toContainText('bar chart · x: token · y: sum(amount_usd)');
  const categories = await categoriesShown(page);
  expect(categories).toHaveLength(5);
  expect(categories.slice(0, 4).every((token) => ['WETH', 'USDC', 'DAI', 'WBTC', 'LINK', 'UNI'].includes(token))).toBe(true);
  expect(categories[4]).toBe('Other (2)');
  await expect(page.getByRole('status').filter({ hasText: 'together in Other' })).toHaveText(
    'Top 4 of 6 categories by sum; the other 2 are together in Other.',
  );

  // Another query, then back: the chart comes back as it was set.
  await openQuery(page, 'Daily volume by chain');
  await openQuery(page, 'Demo trades');
  await expectRestored(page);

  // And after the app is started again.
  expect(problems).toEqual([]);
  await ownHost.restart();
  await page.goto(ownHost.url());
  // the old page's tries to reach the stopped host are no problem of the app
  problems.splice(0);
  await openQuery(page, 'Demo trades');
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });
  await expectRestored(page);
  expect(problems).toEqual([]);
});
