import { expect, type Page } from '@playwright/test';
import { openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// Parameter sets: named values of a query's parameters, saved from the fields, picked again from
// the menu beside them, renamed, and kept with the workspace across a restart.

function minUsd(page: Page) {
  return page.getByRole('region', { name: 'Parameters' }).getByLabel('min_usd');
}

async function openSets(page: Page) {
  await page.locator('summary', { hasText: 'Sets' }).click();
  return page.getByRole('group', { name: 'Parameter sets' });
}

test('saves the values as a set, picks it back, renames it, keeps it after a restart, and names a parameter gone since', async ({
  page,
  ownHost,
}) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  const chain = page.getByRole('region', { name: 'Parameters' }).getByLabel('chain');
  await minUsd(page).fill('5000');
  await chain.selectOption('base');

  let sets = await openSets(page);
  await sets.getByRole('textbox', { name: 'Name of a new set' }).fill('big on base');
  await sets.getByRole('button', { name: 'Save these values' }).click();
  await expect(sets.getByRole('button', { name: /^big on base/ })).toBeVisible();
  await page.keyboard.press('Escape');

  await minUsd(page).fill('10');
  await chain.selectOption('ethereum');
  sets = await openSets(page);
  await sets.getByRole('button', { name: /^big on base/ }).click();
  await expect(minUsd(page)).toHaveValue('5000');
  await expect(chain).toHaveValue('base');

  sets = await openSets(page);
  await sets.getByRole('button', { name: 'Rename big on base' }).click();
  await sets.getByRole('textbox', { name: 'New name of big on base' }).fill('base, 5k');
  await sets.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(sets.getByRole('button', { name: /^base, 5k/ })).toBeVisible();
  await page.keyboard.press('Escape');

  await ownHost.restart();
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  await page.getByRole('region', { name: 'Parameters' }).getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(minUsd(page)).toHaveValue('1000');
  sets = await openSets(page);
  await expect(sets.getByRole('button', { name: /^big on base/ })).toHaveCount(0);
  await sets.getByRole('button', { name: /^base, 5k/ }).click();
  await expect(minUsd(page)).toHaveValue('5000');
  await expect(chain).toHaveValue('base');

  // the query changes: min_usd is gone; picking the set says so, and fills what still fits
  await replaceSql(page, page.getByRole('textbox', { name: 'SQL of Daily volume by chain' }), "SELECT '{{chain}}' AS chain");
  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByText('Edited', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
  await page.getByRole('menuitem', { name: 'Parameters…' }).click();
  const definitions = page.getByRole('dialog', { name: 'Parameters of “Daily volume by chain”' });
  await definitions.getByRole('button', { name: 'Remove min_usd' }).click();
  await definitions.getByRole('button', { name: 'Save' }).click();
  await expect(definitions).toHaveCount(0);
  await expect(minUsd(page)).toHaveCount(0);
  await chain.selectOption('ethereum');
  sets = await openSets(page);
  await sets.getByRole('button', { name: /^base, 5k/ }).click();
  await expect(chain).toHaveValue('base');
  await expect(page.getByRole('status').filter({ hasText: '“min_usd” is no longer a parameter of this query' })).toBeVisible();
});
