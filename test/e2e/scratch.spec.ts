import { expect, type Locator, type Page } from '@playwright/test';
import { cellOf, executionState, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// A scratch tab (New SQL): SQL that runs without being a query, kept across a restart, and saved
// as a query when it is worth keeping. On a host of its own, so that a restart is a real one.

function tabs(page: Page): Locator {
  return page.getByRole('tablist', { name: 'Open queries' });
}

function queries(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Queries' }).getByRole('option');
}

test('New SQL runs without making a query, comes back after a restart, and is saved as a query', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await expect(queries(page).first()).toBeVisible();
  const queriesBefore = await queries(page).count();

  // Ctrl+N: a scratch tab, its template selected so that typing replaces it
  await page.keyboard.press('ControlOrMeta+N');
  await expect(page.getByRole('heading', { level: 1, name: 'SQL 1' })).toBeVisible();
  await expect(tabs(page).getByRole('tab')).toHaveText(['SQL 1']);
  const editor = page.getByRole('textbox', { name: 'SQL of SQL 1' });
  await expect(editor).toBeFocused();
  await page.keyboard.insertText('SELECT 6 * 7 AS answer, ');
  await page.keyboard.press('Enter');
  await page.keyboard.insertText("'scratch' AS kind");
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed');
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'answer', 0)).toHaveText('42');
  await expect(await cellOf(grid, 'kind', 0)).toHaveText('scratch');
  // no query was made for it
  await expect(queries(page)).toHaveCount(queriesBefore);

  // A second one, from the tab bar's button; the first keeps its SQL and its result.
  await page.getByRole('button', { name: 'New SQL', exact: true }).click();
  await expect(tabs(page).getByRole('tab')).toHaveText(['SQL 1', 'SQL 2']);
  await replaceSql(page, page.getByRole('textbox', { name: 'SQL of SQL 2' }), 'SELECT nope');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Failed');
  await tabs(page)
    .getByRole('tab', { name: /^SQL 1/ })
    .click();
  await expect(await cellOf(grid, 'answer', 0)).toHaveText('42');

  // After a restart both are there, with their SQL, and the first with its result: what was typed
  // just before is sent as the host stops.
  await ownHost.restart();
  await page.goto(ownHost.url());
  await expect(tabs(page).getByRole('tab')).toHaveText(['SQL 1', 'SQL 2']);
  await expect(page.getByRole('textbox', { name: 'SQL of SQL 1' })).toContainText("'scratch' AS kind");
  await expect(await cellOf(grid, 'answer', 0)).toHaveText('42');

  // Save as query: the tab becomes the query, in its place, and the list has it.
  await page.getByRole('button', { name: 'Save as query…' }).click();
  const save = page.getByRole('dialog', { name: 'Save as query' });
  await save.getByRole('button', { name: 'Save as query' }).click();
  await expect(save.getByText('Give the query a name.')).toBeVisible();
  await save.getByLabel('Name').fill('The answer');
  await save.getByRole('button', { name: 'Save as query' }).click();
  await expect(save).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'The answer' })).toBeVisible();
  await expect(tabs(page).getByRole('tab')).toHaveText(['The answer', 'SQL 2']);
  await expect(page.getByRole('textbox', { name: 'SQL of The answer' })).toContainText("'scratch' AS kind");
  await expect(queries(page)).toHaveCount(queriesBefore + 1);
  await expect(queries(page).filter({ hasText: 'The answer' })).toHaveCount(1);

  // Closing a scratch tab with SQL in it asks first; "Don't save" drops it, for good.
  await tabs(page)
    .getByRole('tab', { name: /^SQL 2/ })
    .click();
  await page.getByRole('textbox', { name: 'SQL of SQL 2' }).click();
  await page.keyboard.press('ControlOrMeta+W');
  const ask = page.getByRole('dialog', { name: 'Save changes to “SQL 2”?' });
  await ask.getByRole('button', { name: 'Don’t save' }).click();
  await expect(tabs(page).getByRole('tab')).toHaveText(['The answer']);
  await ownHost.restart();
  await page.goto(ownHost.url());
  await expect(tabs(page).getByRole('tab')).toHaveText(['The answer']);
});

test('SQL typed just before the window closes is there when it opens again', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await expect(queries(page).first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+N');
  await expect(page.getByRole('textbox', { name: 'SQL of SQL 1' })).toBeFocused();
  await page.keyboard.insertText('SELECT 1 AS typed_as_it_closed');
  await page.close();

  const again = await page.context().newPage();
  await again.goto(ownHost.url());
  await expect(tabs(again).getByRole('tab')).toHaveText(['SQL 1']);
  await expect(again.getByRole('textbox', { name: 'SQL of SQL 1' })).toContainText('typed_as_it_closed');
});
