import { expect, test, type Page } from '@playwright/test';
import { appUrl, cellOf, executionState, openQuery, replaceSql } from './helpers.ts';

// Queries as a person works on them: create, edit and save SQL, run with parameters, cancel, fail.

/** A name no other test uses: the tests share one data directory. */
function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}`;
}

async function createQuery(page: Page, name: string, sql: string): Promise<void> {
  await page.getByRole('button', { name: 'New query' }).click();
  const dialog = page.getByRole('dialog', { name: 'New query' });
  await dialog.getByLabel('Name').fill(name);
  await replaceSql(page, dialog.getByRole('textbox', { name: 'SQL of the new query' }), sql);
  await dialog.getByRole('button', { name: 'Create query' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

test('creates a query, keeps an unsaved edit across queries, saves it with Ctrl+S and finds it after a reload', async ({ page }) => {
  const name = uniqueName('Answer');
  await page.goto(appUrl());
  await createQuery(page, name, 'SELECT 41 AS answer');
  await expect(page.getByRole('main')).toContainText('version 1');

  const editor = page.getByRole('textbox', { name: `SQL of ${name}` });
  await replaceSql(page, editor, 'SELECT 42 AS answer');
  await expect(page.getByRole('heading', { level: 1, name })).toContainText('Edited');
  await expect(page.getByRole('option', { name: new RegExp(`^${name}`) })).toContainText('(edited)');

  // Another query and back: the edit is still there, unsaved.
  await openQuery(page, 'Demo trades');
  await openQuery(page, name);
  await expect(editor).toHaveText('SELECT 42 AS answer');
  await expect(page.getByRole('heading', { level: 1, name })).toContainText('Edited');

  await editor.click();
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.getByRole('main')).toContainText('version 2');
  await expect(page.getByRole('heading', { level: 1, name })).not.toContainText('Edited');

  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expect(await cellOf(page.getByRole('grid'), 'answer', 0)).toHaveText('42');

  await page.reload();
  await openQuery(page, name);
  await expect(page.getByRole('textbox', { name: `SQL of ${name}` })).toHaveText('SELECT 42 AS answer');
  await expect(page.getByRole('main')).toContainText('version 2');
});

test('runs a query with parameters, refusing a number field that holds text', async ({ page }) => {
  await page.goto(appUrl());
  await openQuery(page, 'Daily volume by chain');
  const parameters = page.getByRole('region', { name: 'Parameters' });
  await expect(parameters.getByLabel('chain')).toHaveValue('ethereum');
  await expect(parameters.getByLabel('min_usd')).toHaveValue('1000');

  await parameters.getByLabel('min_usd').fill('lots');
  await expect(parameters).toContainText('“lots” is not a number.');
  await expect(parameters.getByLabel('min_usd')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: /^Run/ })).toBeDisabled();

  await parameters.getByLabel('chain').selectOption('base');
  await parameters.getByLabel('min_usd').fill('0');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const grid = page.getByRole('grid');
  const firstDay = await cellOf(grid, 'trades', 0);
  await expect(firstDay).toHaveText(/^[1-9]\d*$/);
  const allTrades = Number(await firstDay.textContent());

  // A higher minimum leaves fewer trades on the first day.
  await parameters.getByLabel('min_usd').fill('25000');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(async () => {
    await expect(executionState(page)).toHaveText('Completed');
    const bigTrades = await (await cellOf(grid, 'trades', 0)).textContent();
    expect(bigTrades).toMatch(/^\d+$/);
    expect(Number(bigTrades)).toBeLessThan(allTrades);
  }).toPass({ timeout: 45_000 });

  await page.getByRole('button', { name: 'Recent runs' }).click();
  const recent = page.getByRole('list', { name: 'Recent runs' });
  await expect(recent.getByRole('listitem').first()).toContainText('chain = base · min_usd = 25000');
  await expect(recent.getByRole('listitem').nth(1)).toContainText('chain = base · min_usd = 0');

  // values are kept, not an edit of the query: said where they are, and reset to the defaults
  await page.keyboard.press('Escape');
  await expect(recent).toBeHidden();
  const listed = page.getByRole('listbox', { name: 'Queries' }).getByRole('option', { name: /^Daily volume by chain/ });
  await expect(parameters).toContainText('These values are kept on this computer for your next run');
  await expect(listed).not.toContainText('(edited)');
  await parameters.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(parameters.getByLabel('chain')).toHaveValue('ethereum');
  await expect(parameters.getByLabel('min_usd')).toHaveValue('1000');
  await expect(parameters).not.toContainText('These values are kept');
});

test('cancels the slow query while it runs', async ({ page }) => {
  await page.goto(appUrl());
  await openQuery(page, 'Slow checksum');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Running', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(executionState(page)).toHaveText('Cancelled', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Result' })).toContainText('The run was cancelled before it finished.');
});

test('shows a failing query’s error and marks its line in the SQL', async ({ page }) => {
  const name = uniqueName('Broken');
  await page.goto(appUrl());
  await createQuery(page, name, 'SELECT 1 AS fine,\n  no_such_column AS broken\nFROM range(3)');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Failed', { timeout: 45_000 });

  const problem = page.getByRole('alert').filter({ hasText: 'no_such_column' });
  await expect(problem).toContainText('at line 2, column 3');
  const marked = page.getByRole('region', { name: 'SQL' }).locator('.cm-error-line');
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveText('  no_such_column AS broken');

  await problem.getByRole('button', { name: 'Show in the SQL' }).click();
  await expect(page.getByRole('textbox', { name: `SQL of ${name}` })).toBeFocused();
});

test('opens a query by its id, and says why when it cannot', async ({ page }) => {
  await page.goto(appUrl());
  await page.getByRole('button', { name: 'Open by id…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a query by id' });
  await dialog.getByLabel('Query id').fill('three');
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog).toContainText('Enter the query’s number, such as 3 or #1205.');

  await dialog.getByLabel('Query id').fill('987654');
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('The query could not be opened.');

  await dialog.getByLabel('Query id').fill('#3');
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Slow checksum' })).toBeVisible();
});
