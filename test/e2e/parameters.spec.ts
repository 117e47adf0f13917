import { expect } from '@playwright/test';
import { cellOf, executionState, openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// Parameters defined from the app: offered for each `{{name}}` typed in the SQL, saved with the
// query, and checked before a run.

test('defines the parameters typed in the SQL, saves them with the query, and flags a stray quote before the run', async ({
  page,
  ownHost,
}) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, "select '{{who}}' as who, {{n}} * 2 as twice");
  const notice = page.getByText('{{who}}, {{n}} have no definition');
  await expect(notice).toBeVisible();
  await page.getByRole('button', { name: 'Define parameters…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Parameters of “Demo trades”' });
  await dialog.getByRole('button', { name: 'Add who' }).click();
  await dialog.getByRole('button', { name: 'Add n' }).click();
  const who = dialog.getByRole('group', { name: 'Parameter who' });
  await who.getByLabel('Default').fill('analyst');
  const n = dialog.getByRole('group', { name: 'Parameter n' });
  await n.getByLabel('Type').selectOption('number');
  await n.getByLabel('Default').fill('many');
  await expect(n).toContainText('The default must be a number.');
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await n.getByLabel('Default').fill('21');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(notice).toBeHidden();

  // the fields, with their defaults; a lone quote in a text value is flagged before the run
  const fields = page.getByRole('region', { name: 'Parameters' });
  await expect(fields.getByLabel('who')).toHaveValue('analyst');
  await expect(fields.getByLabel(/^n\s*number$/)).toHaveValue('21');
  await fields.getByLabel('who').fill("analyst's");
  await expect(fields).toContainText("A ' ends the quotes around the value in the SQL");
  await expect(page.getByRole('button', { name: /^Run/ })).toBeDisabled();
  await fields.getByLabel('who').fill("analyst''s");
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'who', 0)).toHaveText("analyst's");
  await expect(await cellOf(grid, 'twice', 0)).toHaveText('42');

  // saved with the query: there after a reload
  await page.reload();
  await openQuery(page, 'Demo trades');
  await expect(page.getByRole('region', { name: 'Parameters' }).getByLabel(/^n\s*number$/)).toHaveValue('21');
});

test('an enum’s options are typed one to a line, so an option may hold a comma', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, "select '{{dex}}' as dex");
  await page.getByRole('button', { name: 'Define parameters…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Parameters of “Demo trades”' });
  await dialog.getByRole('button', { name: 'Add dex' }).click();
  const dex = dialog.getByRole('group', { name: 'Parameter dex' });
  await dex.getByLabel('Type').selectOption('enum');
  await expect(dex).toContainText('List the options, one to a line.');
  await dex.getByLabel('Options').fill('Uniswap, v3\nCurve');
  await dex.getByLabel('Default').fill('Curve');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const field = page.getByRole('region', { name: 'Parameters' }).getByLabel('dex');
  await expect(field.getByRole('option')).toHaveText(['Uniswap, v3', 'Curve']);
  await field.selectOption('Uniswap, v3');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expect(await cellOf(page.getByRole('grid'), 'dex', 0)).toHaveText('Uniswap, v3');

  // opened again, the options read as they were typed
  await page.getByRole('button', { name: 'More actions for Demo trades' }).click();
  await page.getByRole('menuitem', { name: 'Parameters…' }).click();
  await expect(dialog.getByRole('group', { name: 'Parameter dex' }).getByLabel('Options')).toHaveValue('Uniswap, v3\nCurve');
});
