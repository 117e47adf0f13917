import { expect, type Page } from '@playwright/test';
import { cellOf, runScratch, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// Cells picked as in a spreadsheet (click, Shift+click, Shift+arrows, Ctrl/Cmd+A) and copied as
// TSV by Ctrl/Cmd+C, or in another form from the right-click menu.

async function clipboard(page: Page): Promise<string> {
  return String(await page.evaluate('navigator.clipboard.readText()'));
}

test('copies a block of cells as TSV, Markdown and SQL, and every cell of the view', async ({ page, context, ownHost }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = watchProblems(page);
  await runScratch(
    page,
    ownHost.url(),
    "SELECT range AS n, (range::DOUBLE / 4)::DECIMAL(10, 2) AS quarter, 'row ' || range AS label, range % 2 = 0 AS even FROM range(300)",
  );
  const grid = page.getByRole('grid');

  // a click, then Shift+click two rows down and two columns right: nine cells
  await (await cellOf(grid, 'n', 1)).click();
  await page.keyboard.down('Shift');
  await (await cellOf(grid, 'label', 3)).click();
  await page.keyboard.up('Shift');
  await expect(grid.locator('.qd-block')).toHaveCount(9);
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect((await clipboard(page)).split('\n')).toEqual(['n\tquarter\tlabel', '1\t0.25\trow 1', '2\t0.50\trow 2', '3\t0.75\trow 3']);

  // Shift+arrows stretch it from the corner it was stretched to
  await page.keyboard.press('Shift+ArrowDown');
  await expect(grid.locator('.qd-block')).toHaveCount(12);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(grid.locator('.qd-block')).toHaveCount(16);

  // the right-click menu copies the same cells in other forms
  await (await cellOf(grid, 'quarter', 2)).click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Cell actions' });
  await menu.getByRole('menuitem', { name: 'Copy as a Markdown table' }).click();
  await expect(menu).toBeHidden();
  await expect.poll(() => clipboard(page)).toContain('| n | quarter | label | even |');
  expect((await clipboard(page)).split('\n')).toEqual([
    '| n | quarter | label | even |',
    '| ---: | ---: | --- | --- |',
    '| 1 | 0.25 | row 1 | false |',
    '| 2 | 0.50 | row 2 | true |',
    '| 3 | 0.75 | row 3 | false |',
    '| 4 | 1.00 | row 4 | true |',
  ]);
  await (await cellOf(grid, 'n', 1)).click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Copy as SQL VALUES' }).click();
  await expect.poll(() => clipboard(page)).toContain("(1, 0.25, 'row 1', FALSE),");

  // a right click outside the block starts a new one there; Escape closes the menu
  await (await cellOf(grid, 'label', 7)).click({ button: 'right' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(grid.locator('.qd-block')).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+C');
  await expect.poll(() => clipboard(page)).toBe('label\nrow 7');

  // every cell of the view, rows the grid has not loaded too
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+C');
  await expect.poll(async () => (await clipboard(page)).split('\n').length).toBe(301);
  expect((await clipboard(page)).split('\n').at(-1)).toBe('299\t74.75\trow 299\tfalse');
  expect(problems).toEqual([]);
});
