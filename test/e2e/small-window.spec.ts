import { expect } from '@playwright/test';
import { cellOf, executionState, openQuery } from './helpers.ts';
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
