import { expect } from '@playwright/test';
import { ACTIONS } from '../../renderer/src/shell/actions.ts';
import { executionState, openQuery, replaceSql } from './helpers.ts';
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
  // closed, it is gone from the page too
  await expect(page.locator('dialog')).toHaveCount(0);

  await page.keyboard.press('F1');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByRole('row', { name: /Run the query/ })).toContainText(/Ctrl\+↵|⌘↵/);
  await expect(sheet.getByRole('row', { name: /Close the tab/ })).toContainText(/Ctrl\+W|⌘W/);
  await expect(sheet.getByRole('table', { name: 'In a result grid' }).getByRole('row', { name: /Every cell of the view/ })).toContainText(
    /Ctrl\+A|⌘A/,
  );
});

test('a shortcut pressed just as Escape closes a dialog is not lost', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('F1');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  // Ctrl+K comes as Escape closes the dialog, before the close event the browser fires a task later
  await page.evaluate(
    `document.querySelector('dialog[open]').addEventListener('cancel', () =>
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true, cancelable: true })))`,
  );
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Commands' }).getByRole('combobox', { name: 'Find a command' })).toBeFocused();
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

test('the palette holds every action of the app, each enabled only where it applies', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });

  const palette = page.getByRole('dialog', { name: 'Commands' });
  // by its title alone: the option's name holds its shortcut too
  const option = (title: string) =>
    palette
      .getByRole('option')
      .filter({ has: page.locator('span', { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
  await page.keyboard.press('ControlOrMeta+K');
  // the one list of actions, in its order, each with its shortcut
  await expect(palette.getByRole('option').locator('span')).toHaveText(Object.values(ACTIONS).map((action) => action.title));
  for (const action of Object.values(ACTIONS)) {
    if ('keys' in action) await expect(option(action.title).locator('kbd')).toHaveText(action.keys);
  }
  // a saved query with one run and a result, shown as rows
  const applies = [
    'Run the query',
    'Save the query',
    'Compare runs…',
    'Edit name, description and tags…',
    'Parameters…',
    'Archive',
    'Make private',
    'Show a sample of the rows',
    'Chart the result',
    'Profile the columns',
    'Pivot the result',
    'Columns to show…',
    'Export the result…',
    'Go to Tables',
    'Settings…',
    'Versions of the query…',
  ];
  const doesNot = ['Save as query…', 'Cancel the run', 'Unarchive', 'Make public', 'Show all rows', 'Next tab'];
  for (const title of applies.filter((t) => t !== 'Compare runs…')) await expect(option(title)).toHaveAttribute('aria-disabled', 'false');
  for (const title of [...doesNot, 'Compare runs…']) await expect(option(title)).toHaveAttribute('aria-disabled', 'true');

  // each runs from the palette: the result's modes and menus, the query's flags
  const run = async (title: string) => {
    await page.keyboard.press('ControlOrMeta+K');
    await palette.getByRole('combobox').fill(title);
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
  };
  await run('Chart the result');
  await expect(page.getByRole('button', { name: 'Chart', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await run('Pivot the result');
  await expect(page.getByRole('group', { name: 'Result view' }).getByRole('button', { name: 'Pivot' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await run('Show all rows');
  await expect(page.getByRole('button', { name: 'All rows', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await run('Columns to show');
  await expect(page.getByRole('group', { name: 'Columns to show' })).toBeVisible();
  await page.keyboard.press('Escape');
  await run('rename');
  await expect(page.getByRole('dialog', { name: 'Name, description and tags' })).toBeVisible();
  await page.keyboard.press('Escape');
  await run('Make private');
  await expect(page.locator('header.head .badge')).toHaveText('private');

  // on the Tables page the query's actions do not apply
  await run('Go to Tables');
  await page.keyboard.press('ControlOrMeta+K');
  await expect(option('Export the result…')).toHaveAttribute('aria-disabled', 'true');
  await expect(option('Go to Queries')).toHaveAttribute('aria-disabled', 'false');
});
