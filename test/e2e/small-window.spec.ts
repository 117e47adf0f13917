import { expect } from '@playwright/test';
import { cellOf, executionState, openQuery, runScratch } from './helpers.ts';
import { test } from './own-host.ts';

// The window at 1024x640, the smallest it is meant to work at: the editor gives way, and the
// result still shows at least 12 rows.

test.use({ viewport: { width: 1024, height: 640 } });

test('at 1024x640 a result keeps at least 12 rows in view', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const grid = page.getByRole('grid');
  const twelfth = await cellOf(grid, 'trade_id', 11);
  await expect(twelfth).toHaveText('12');
  // the footer wraps to a second line in this width: the pane scrolls that far, as a person would
  await page.getByRole('heading', { level: 1, name: 'Demo trades' }).hover();
  await page.mouse.wheel(0, 600);
  // the screenshot the check is made on, kept with the test's output
  await page.screenshot({ path: test.info().outputPath('1024x640.png') });
  // the 12th row is whole in view: above the footer and the grid's horizontal scroll bar (this
  // result is wider than the window), inside the window
  const box = (await twelfth.boundingBox())!;
  const footer = (await page.getByLabel('Result summary').boundingBox())!;
  const scrollBar = 16;
  expect(box.y + box.height, 'the 12th row ends above the scroll bar and the footer').toBeLessThanOrEqual(footer.y - scrollBar + 1);
  await expect(twelfth).toBeInViewport({ ratio: 1 });
  expect(footer.y + footer.height, 'the footer ends inside the window').toBeLessThanOrEqual(640 + 1);
  // and the editor, given way, is still there to type in
  await expect(page.getByRole('textbox', { name: 'SQL of Demo trades' })).toBeVisible();
});

test('at 1024x640 the footer of a query with parameters is reached by scrolling, and shows all it says', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const footer = page.getByLabel('Result summary');
  await expect(footer).toContainText('rows');
  // as a person reaches it: the wheel over the query's header, not a script's scrollIntoView
  await page.getByRole('heading', { level: 1, name: 'Daily volume by chain' }).hover();
  await page.mouse.wheel(0, 600);
  await expect(footer).toBeInViewport({ ratio: 1 });
  // every part of it whole inside it: none cut at the window's right edge
  const footerBox = (await footer.boundingBox())!;
  for (const part of await footer.locator(':scope > span').all()) {
    const box = (await part.boundingBox())!;
    expect(box.x + box.width, `"${await part.textContent()}" ends inside the footer`).toBeLessThanOrEqual(
      footerBox.x + footerBox.width + 1,
    );
  }
  // the grid kept its rows meanwhile
  await expect(page.getByRole('grid').getByRole('row')).not.toHaveCount(1);
});

test('a sorted right-aligned column keeps its whole name, its filter button on its own side', async ({ page, ownHost }) => {
  await runScratch(page, ownHost.url(), 'SELECT 1 AS n, 12.5::DOUBLE AS amount_usd_total, 3::BIGINT AS fee');
  const grid = page.getByRole('grid');
  for (const name of ['amount_usd_total', 'fee']) {
    const header = grid.getByRole('columnheader', { name: new RegExp(`^${name}\\b`) });
    await header.click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const text = header.locator('.qd-header-name');
    await expect(text).toHaveText(name);
    const cut = await text.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut, `${name} is not cut`).toBe(false);
    // whole inside the label, which clips what does not fit
    const nameBox = (await text.boundingBox())!;
    const label = (await header.locator('.ag-header-cell-label').boundingBox())!;
    expect(nameBox.x, `${name} starts inside its label`).toBeGreaterThanOrEqual(label.x - 0.5);
    expect(nameBox.x + nameBox.width, `${name} ends inside its label`).toBeLessThanOrEqual(label.x + label.width + 0.5);
    const filter = (await header.locator('.ag-header-cell-filter-button').boundingBox())!;
    expect(filter.x, `${name}'s filter button is after its name, away from the previous column`).toBeGreaterThanOrEqual(
      nameBox.x + nameBox.width,
    );
  }
});

test('the tab that becomes active is scrolled into view when the tab strip overflows', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  const options = page.getByRole('listbox', { name: 'Queries' }).getByRole('option');
  await expect(options.first()).toBeVisible();
  const count = await options.count();
  const tabs = page.getByRole('tablist', { name: 'Open queries' }).getByRole('tab');
  for (let index = 0; index < count; index++) {
    // a double click keeps each open in a tab of its own
    await options.nth(index).dblclick();
    await expect(tabs).toHaveCount(index + 1);
    await expect(tabs.nth(index)).toBeInViewport({ ratio: 0.99 });
  }
  const strip = page.getByRole('tablist', { name: 'Open queries' });
  expect(await strip.evaluate((element) => element.scrollWidth > element.clientWidth), 'the tabs overflow').toBe(true);
  // back to the first from the list, then along the strip with the keyboard
  await options.first().click();
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.first()).toBeInViewport({ ratio: 0.99 });
  for (let index = 1; index < count; index++) {
    await page.keyboard.press('Control+PageDown');
    await expect(tabs.nth(index)).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.nth(index)).toBeInViewport({ ratio: 0.99 });
  }
});
