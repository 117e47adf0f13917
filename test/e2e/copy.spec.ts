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

test('a copy the system clipboard refuses is said where it was asked, and the next one goes through', async ({
  page,
  context,
  ownHost,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // the browser refuses a write while its page lacks the focus: here, while the page says so
  await context.addInitScript({
    content: `{
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      navigator.clipboard.writeText = (text) =>
        document.documentElement.dataset.refuseClipboard === 'yes'
          ? Promise.reject(new DOMException('Document is not focused.', 'NotAllowedError'))
          : write(text);
    }`,
  });
  const problems = watchProblems(page);
  await runScratch(page, ownHost.url(), 'SELECT range AS n, range * 2 AS twice FROM range(40)');
  const refuse = (yes: boolean) => page.evaluate(`document.documentElement.dataset.refuseClipboard = '${yes ? 'yes' : 'no'}'`);
  const grid = page.getByRole('grid');
  const refusal = 'Nothing was copied: the system clipboard refused the text: Document is not focused. Click the window and copy again.';

  // the rows' grid: under the grid, until a copy goes through. As a person does, the cell is
  // clicked once its value shows, and the copy asked once it holds the focus.
  await refuse(true);
  const cell = await cellOf(grid, 'twice', 3);
  await expect(cell).toHaveText('6');
  await cell.click();
  await expect(cell).toBeFocused();
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('alert')).toHaveText(refusal);
  await refuse(false);
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('status').filter({ hasText: /^Copied$/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await clipboard(page)).toBe('twice\n6');

  // the sample's grid: in the result's toolbar, where "Copied" shows
  await page.getByRole('button', { name: 'Sample', exact: true }).click();
  await page.getByRole('button', { name: 'Draw sample' }).click();
  const sampleGrid = page.getByRole('grid').locator('visible=true');
  await expect(sampleGrid).toHaveAttribute('aria-rowcount', '41');
  await refuse(true);
  const sampled = await cellOf(sampleGrid, 'n', 0);
  await expect(sampled).toHaveText(/^\d+$/);
  await sampled.click();
  await expect(sampled).toBeFocused();
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('status').filter({ hasText: refusal })).toBeVisible();
  await refuse(false);
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('status').filter({ hasText: /^Copied$/ })).toBeVisible();
  expect(await clipboard(page)).toMatch(/^n\ttwice\n\d+\t\d+$/);
  expect(problems).toEqual([]);
});
