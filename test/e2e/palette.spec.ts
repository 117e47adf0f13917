import { expect } from '@playwright/test';
import { openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// Every action by keyboard: the command palette finds it and runs it; the sheet lists the shortcuts.

test('the command palette finds an action by name and runs it; the shortcuts sheet lists the keys', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option').first()).toBeVisible();

  await page.keyboard.press('ControlOrMeta+K');
  const palette = page.getByRole('dialog', { name: 'Commands' });
  await expect(palette.getByRole('combobox', { name: 'Find a command' })).toBeFocused();
  await page.keyboard.type('tables');
  await expect(palette.getByRole('option')).toHaveText(['Go to Tables']);
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('button', { name: 'Tables' })).toHaveAttribute('aria-current', 'page');

  // A command that opens a dialog: the dialog stays open once the palette is gone.
  await page.keyboard.press('ControlOrMeta+Shift+P');
  await page.keyboard.type('new query');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'New query' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New query' })).toBeHidden();
  // closed, the browser hides it at once; the app lets it go at the close event that follows
  await expect(page.locator('dialog')).toHaveCount(0);

  await page.keyboard.press('F1');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByRole('row', { name: /Run the query/ })).toContainText(/Ctrl\+↵|⌘↵/);
  await expect(sheet.getByRole('row', { name: /Close the tab/ })).toContainText(/Ctrl\+W|⌘W/);
  await expect(sheet.getByRole('table', { name: 'In a result grid' }).getByRole('row', { name: /Every cell of the view/ })).toContainText(/Ctrl\+A|⌘A/);
});

test('F1 shows the shortcuts from the editor too, where Ctrl+/ comments the line out', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, 'SELECT 1 AS one');
  await page.keyboard.press('ControlOrMeta+/');
  await expect(editor).toHaveText('-- SELECT 1 AS one');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toHaveCount(0);
  await page.keyboard.press('F1');
  await expect(sheet.getByRole('row', { name: /Keyboard shortcuts/ })).toContainText('F1');
  await expect(sheet).not.toContainText(/Ctrl\+\/|⌘\//);
  await page.keyboard.press('Escape');
  await expect(editor).toBeFocused();
});
