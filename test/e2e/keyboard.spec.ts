import { expect } from '@playwright/test';
import { executionState, openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// The keyboard as an analyst uses it: typing replaces a template, saving keeps the place, and a
// shortcut pressed in a dialog stays in the dialog.

test('a new query starts with its template selected, so typing replaces it', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await page.getByRole('button', { name: 'New query' }).click();
  const dialog = page.getByRole('dialog', { name: 'New query' });
  await dialog.getByLabel('Name').fill('Typed over');
  const editor = dialog.getByRole('textbox', { name: 'SQL of the new query' });
  await editor.focus();
  await page.keyboard.type('SELECT 7 AS seven');
  await expect(editor).toHaveText('SELECT 7 AS seven');
});

test('Ctrl+S keeps the cursor and the scroll of the editor', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  const lines = Array.from({ length: 80 }, (_, i) => `  ${i} AS c${i},`).join('\n');
  await replaceSql(page, editor, `SELECT\n${lines}\n  0 AS last`);
  // the cursor is at the end, the editor scrolled down to it
  const scroller = page.getByRole('region', { name: 'SQL' }).locator('.cm-scroller');
  const scrolled = await scroller.evaluate((element) => element.scrollTop);
  expect(scrolled).toBeGreaterThan(100);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.getByRole('main')).toContainText('version 2');
  await page.keyboard.type(', 1 AS after');
  await expect(editor).toContainText('0 AS last, 1 AS after');
  expect(await scroller.evaluate((element) => element.scrollTop)).toBe(scrolled);
});

test('Ctrl+Enter in a dialog does not run the query behind it', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  await expect(executionState(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Open by id…' }).click();
  const dialog = page.getByRole('dialog', { name: /Open/ });
  await dialog.getByLabel('Query id').fill('1');
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // the focus is back on the button that opened the dialog, and nothing ran
  await expect(page.getByRole('button', { name: 'Open by id…' })).toBeFocused();
  await expect(executionState(page)).toHaveCount(0);
});

test('the Columns and Export menus close on Escape and on a click outside, giving the focus back', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  for (const [button, group] of [
    ['Columns', 'Columns to show'],
    ['Export CSV', 'Export CSV'],
  ] as const) {
    const summary = page.locator('summary', { hasText: button });
    await summary.click();
    const menu = page.getByRole('group', { name: group });
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(summary).toBeFocused();
    await summary.click();
    await expect(menu).toBeVisible();
    await page.getByRole('heading', { level: 1, name: 'Demo trades' }).click();
    await expect(menu).toBeHidden();
  }
  // Escape in a menu closes the menu only: the run behind it is not touched
  await expect(executionState(page)).toHaveText('Completed');
});
