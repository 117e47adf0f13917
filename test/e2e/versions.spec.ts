import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// A query's versions, kept on this computer with each save: two saves, then the versions dialog
// compares two of them line by line and restores the older one into the editor, unsaved. On a
// host of its own, so the query's versions are only those this test made.

async function saveSql(page: Page, sql: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, sql);
  await expect(page.getByText('Edited', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByText('Edited', { exact: true })).toHaveCount(0);
}

test('compares two saved versions and restores the older one into the editor, unsaved', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  await saveSql(page, 'SELECT 1 AS first_edit\nFROM trades');
  await saveSql(page, 'SELECT 2 AS second_edit\nFROM trades');
  const header = page.getByRole('button', { name: /^version \d+$/ });
  const latest = Number((await header.textContent())!.replace(/\D/g, ''));

  // from its header: the two newest are compared at once
  await header.click();
  const dialog = page.getByRole('dialog', { name: 'Versions of Demo trades' });
  const versions = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText(`Version ${latest}`);
  await expect(versions.nth(0)).toContainText('SQL +1 −1 line');
  const diff = dialog.getByTestId('sql-diff');
  await expect(diff.locator('del')).toHaveText('−Only in version ' + (latest - 1) + ': SELECT 1 AS first_edit');
  await expect(diff.locator('ins')).toHaveText('+Only in version ' + latest + ': SELECT 2 AS second_edit');
  await expect(diff).toContainText('FROM trades');

  // any two: the first one (as the service seeded it) against the first edit
  await dialog.getByRole('checkbox', { name: `Version ${latest - 2}` }).check();
  await expect(dialog.getByRole('checkbox', { name: `Version ${latest}` })).not.toBeChecked();
  await expect(dialog.getByRole('region', { name: `Version ${latest - 2} against version ${latest - 1}` })).toBeVisible();
  await expect(diff.locator('ins').first()).toHaveText('+Only in version ' + (latest - 1) + ': SELECT 1 AS first_edit');
  await expect(dialog.getByText('The same in both.')).toBeVisible();
  // the dialog with its diff shown, which the accessibility spec's query (one version) does not reach
  const { violations } = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(violations.filter((v) => v.impact !== 'minor').map((v) => v.id)).toEqual([]);

  // restored as an edit: in the editor, marked Edited, the query on the service as it was
  await dialog.getByRole('button', { name: `Restore version ${latest - 1}` }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'SQL of Demo trades' })).toContainText('SELECT 1 AS first_edit');
  await expect(page.getByText('Edited', { exact: true })).toBeVisible();
  await expect(header).toHaveText(`version ${latest}`);

  // from the command palette too, with the versions still there after a restart
  await ownHost.restart();
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('combobox', { name: 'Find a command' }).fill('versions');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('dialog', { name: 'Versions of Demo trades' }).getByRole('list', { name: 'Versions' }).getByRole('listitem'),
  ).toHaveCount(3);
});

test("shows a parameter's changed default, and restores an earlier version's parameters for you to save", async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  const editParameters = async () => {
    await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
    await page.getByRole('menuitem', { name: 'Parameters…' }).click();
    return page.getByRole('dialog', { name: 'Parameters of “Daily volume by chain”' });
  };
  let definitions = await editParameters();
  await definitions.getByRole('group', { name: 'Parameter min_usd' }).getByLabel('Default').fill('5000');
  await definitions.getByRole('button', { name: 'Save' }).click();
  await expect(definitions).toHaveCount(0);

  // from the query list's menu
  await page
    .getByRole('listbox', { name: 'Queries' })
    .getByRole('option', { name: /^Daily volume by chain/ })
    .click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Versions of the query…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Versions of Daily volume by chain' });
  await expect(dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem').first()).toContainText('parameter min_usd changed');
  await expect(dialog.getByTestId('parameter-changes')).toHaveText('min_usd default 1000 → 5000');
  await expect(dialog.getByText('the SQL is the same')).toBeVisible();

  // the SQL is the same: only the parameters come back, in their editor, not saved until Save
  await dialog
    .getByRole('button', { name: /^Restore version/ })
    .nth(1)
    .click();
  definitions = page.getByRole('dialog', { name: 'Parameters of “Daily volume by chain”' });
  await expect(definitions.getByRole('group', { name: 'Parameter min_usd' }).getByLabel('Default')).toHaveValue('1000');
  await definitions.getByRole('button', { name: 'Save' }).click();
  await expect(definitions).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Parameters' }).getByLabel('min_usd')).toHaveValue('1000');
});
