import { expect, type Locator, type Page } from '@playwright/test';
import { cellOf, executionState, openCompareRuns, openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// Every menu, popover and dialog gives the focus back when it closes: to where the user was, or to
// where the action took them, never to the page's body (from there the keyboard starts over at
// the top of the window).

/** Waits for the page to settle the focus after a close, then says where it is. */
async function expectFocusKept(page: Page, after: string): Promise<void> {
  await expect
    .poll(() => page.evaluate("document.activeElement && document.activeElement !== document.body ? 'kept' : 'on the body'"), {
      message: `the focus after ${after}`,
    })
    .toBe('kept');
}

/**
 * Each enabled choice of a menu in turn, the menu opened again before each; a dialog a choice
 * opens is closed with Escape. Choices that take the menu's place away (Archive hides the query,
 * Profile hides the grid) go last.
 */
async function walkMenu(page: Page, open: () => Promise<void>, menu: Locator, name: string): Promise<void> {
  await open();
  const items = await menu
    .getByRole('menuitem')
    .evaluateAll((all) => all.map((item) => ({ label: item.textContent!.trim(), enabled: !item.hasAttribute('disabled') })));
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expectFocusKept(page, `Escape in ${name}`);
  const takesPlace = (label: string) => /^(Archive|Profile)/.test(label);
  const labels = items.filter((i) => i.enabled).map((i) => i.label);
  for (const label of [...labels.filter((l) => !takesPlace(l)), ...labels.filter(takesPlace)]) {
    await open();
    await menu.getByRole('menuitem', { name: label, exact: true }).click();
    await expect(menu).toBeHidden();
    // a choice ending in an ellipsis opens a dialog
    if (label.endsWith('…')) {
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    await expectFocusKept(page, `“${label}” in ${name}`);
  }
}

test('the focus survives every menu, popover and dialog', async ({ page, ownHost, context }) => {
  // many menus and dialogs, each opened and closed in turn
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  for (const minimum of ['0', '40000']) {
    await page.getByRole('region', { name: 'Parameters' }).getByLabel('min_usd').fill(minimum);
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  }

  // the grid's cell menu, from the keyboard
  const grid = page.getByRole('grid');
  const cell = await cellOf(grid, 'day', 0);
  await cell.click();
  const cellMenu = page.getByRole('menu', { name: 'Cell actions' });
  await walkMenu(
    page,
    async () => {
      await cell.click();
      await page.keyboard.press('Shift+F10');
      await expect(cellMenu).toBeVisible();
    },
    cellMenu,
    'the cell menu',
  );

  // the query's own menu
  const more = page.getByRole('button', { name: /^More actions for/ });
  const moreMenu = page.getByRole('menu', { name: /^More actions for/ });
  await walkMenu(
    page,
    async () => {
      await more.click();
      await expect(moreMenu).toBeVisible();
    },
    moreMenu,
    'the query menu',
  );

  // Recent runs, and Compare runs opened from it, closed with Escape
  await openCompareRuns(page);
  await expect(page.getByRole('dialog', { name: 'Compare runs' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Compare runs' })).toBeHidden();
  await expectFocusKept(page, 'Escape from Compare runs');
  await expect(page.getByRole('button', { name: /Recent runs/ })).toBeFocused();

  // the result's menus under a button
  for (const button of ['Columns', 'Export CSV']) {
    await page.locator('summary', { hasText: button }).click();
    await page.keyboard.press('Escape');
    await expectFocusKept(page, `Escape in ${button}`);
  }

  // every dialog the command palette opens, and the palette itself
  const palette = page.getByRole('dialog', { name: 'Commands' });
  await page.keyboard.press('ControlOrMeta+K');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await expectFocusKept(page, 'Escape in the palette');
  for (const command of [
    'New query…',
    'Open a query by id…',
    'Manage accounts…',
    'Settings…',
    'Keyboard shortcuts',
    'Compare runs…',
    'Parameters…',
    'Edit name, description and tags…',
  ]) {
    await page.keyboard.press('ControlOrMeta+K');
    await palette.getByRole('combobox').fill(command);
    await palette.getByRole('option', { name: command }).click();
    await expect(palette).toBeHidden();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expectFocusKept(page, `Escape in the dialog of “${command}”`);
  }

  // the question on closing an edited tab
  await replaceSql(page, page.getByRole('textbox', { name: 'SQL of Daily volume by chain' }), 'SELECT 1 AS one');
  await page.keyboard.press('ControlOrMeta+W');
  await expect(page.getByRole('dialog', { name: /^Save changes/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expectFocusKept(page, 'Escape in the question on closing the tab');

  // the list's context menu, each action on the query it was opened on (Archive last: it hides it)
  await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill('');
  const list = page.getByRole('listbox', { name: 'Queries' });
  const option = list.getByRole('option', { name: /^Demo trades/ });
  const listMenu = page.getByRole('menu', { name: 'Actions for Demo trades' });
  await walkMenu(
    page,
    async () => {
      await option.click({ button: 'right' });
      await expect(listMenu).toBeVisible();
    },
    listMenu,
    'the list menu',
  );
});
