import { expect } from '@playwright/test';
import { openQuery } from './helpers.ts';
import { test } from './own-host.ts';

// Renaming, describing, tagging, archiving and making a query private, from the query's header.

test('renames, describes and tags a query; archives it into its own section and back; makes it private', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  const more = page.getByRole('button', { name: 'More actions for Demo trades' });
  await more.click();
  const menu = page.getByRole('menu', { name: 'More actions for Demo trades' });
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  // Escape closes the menu and gives the focus back to its button
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();

  await more.click();
  await menu.getByRole('menuitem', { name: 'Edit name, description and tags…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name, description and tags' });
  await dialog.getByLabel('Name').fill('Trades, renamed');
  await dialog.getByLabel('Description').fill('Every trade, renamed from the app.');
  await dialog.getByLabel('Tags').fill('demo, renamed, renamed');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const heading = page.getByRole('heading', { level: 1, name: 'Trades, renamed' });
  await expect(heading).toBeVisible();
  const header = page.locator('header.head');
  await expect(header).toContainText('Every trade, renamed from the app.');
  await expect(header.locator('.tag')).toHaveText(['demo', 'renamed']);

  // archived: out of the list, into its section
  const list = page.getByRole('listbox', { name: 'Queries' });
  await page.getByRole('searchbox', { name: 'Filter queries by name, tag or SQL' }).fill('');
  await page.getByRole('button', { name: 'More actions for Trades, renamed' }).click();
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await expect(header).toContainText('archived');
  await expect(list.getByRole('option', { name: /Trades, renamed/ })).toBeHidden();
  await page.getByRole('button', { name: 'Show archived (1)' }).click();
  await expect(list.getByRole('option', { name: /Trades, renamed/ })).toBeVisible();
  await page.getByRole('button', { name: 'More actions for Trades, renamed' }).click();
  await page.getByRole('menuitem', { name: 'Unarchive' }).click();
  await expect(page.getByRole('button', { name: /archived \(/ })).toBeHidden();
  await expect(list.getByRole('option', { name: /Trades, renamed/ })).toBeVisible();

  await page.getByRole('button', { name: 'More actions for Trades, renamed' }).click();
  await page.getByRole('menuitem', { name: 'Make private' }).click();
  await expect(header.locator('.badge')).toHaveText('private');

  // all of it is the service's now: after a reload too
  await page.reload();
  await openQuery(page, 'Trades, renamed');
  await expect(page.locator('header.head')).toContainText('Every trade, renamed from the app.');
  await expect(page.locator('header.head .badge')).toHaveText('private');
});

test("a query's context menu in the list: from the mouse and the keyboard, each action, Escape back to the list", async ({
  page,
  ownHost,
}) => {
  await page.goto(ownHost.url());
  const list = page.getByRole('listbox', { name: 'Queries' });
  const slow = list.getByRole('option', { name: /Slow checksum/ });
  await slow.click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Actions for Slow checksum' });
  await expect(menu.getByRole('menuitem', { name: 'Open in a tab' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(list).toBeFocused();

  // Shift+F10 opens it for the selected query; a dialog of the header opens on that query
  await page.keyboard.press('Shift+F10');
  await menu.getByRole('menuitem', { name: 'Edit name, description and tags…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name, description and tags' });
  await expect(dialog.getByLabel('Name')).toHaveValue('Slow checksum');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Slow checksum' })).toBeVisible();

  await slow.click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Archive' }).click();
  await expect(slow).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show archived (1)' })).toBeVisible();
});
