import { expect, type Page } from '@playwright/test';
import { cellOf, executionState, runScratch, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// Values as their type says: a DECIMAL with its scale, integers past 2^53 exact, timestamps in UTC
// with the local time on hover, and thousands separators when the Settings ask for them. On a host
// of its own, so the setting reaches no other test.

async function setSeparators(page: Page, on: boolean): Promise<void> {
  await page.keyboard.press('ControlOrMeta+Comma');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('checkbox', { name: /^Show numbers with thousands separators/ }).setChecked(on);
  await expect(settings.getByRole('status')).toHaveText('Number format saved.');
  await settings.getByRole('button', { name: 'Close' }).click();
  await expect(settings).toBeHidden();
}

test('a DECIMAL keeps its scale, a huge integer its digits, and separators come and go with the setting', async ({ page, ownHost }) => {
  const problems = watchProblems(page);
  await runScratch(
    page,
    ownHost.url(),
    "SELECT 0.1::DECIMAL(10, 2) AS fee, 1234567 AS n, 12345678901234567890123::HUGEINT AS big, 1234.5::DOUBLE AS x, TIMESTAMP '2024-01-01 20:30:00' AS at",
  );
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'fee', 0)).toHaveText('0.10');
  await expect(await cellOf(grid, 'n', 0)).toHaveText('1234567');
  await expect(await cellOf(grid, 'big', 0)).toHaveText('12345678901234567890123');
  // a timestamp reads in UTC, as the service gives it; hovering tells the moment on the user's clock
  await expect(await cellOf(grid, 'at', 0)).toHaveText('2024-01-01 20:30:00.000 UTC');
  await (await cellOf(grid, 'at', 0)).hover();
  await expect(page.locator('.ag-tooltip')).toContainText(/^2024-01-01 20:30:00\.000 UTC is .*2024.* your time$/);

  // a filter's value is checked against its column's type as it is typed
  const filter = page.getByRole('textbox', { name: 'Filter rows' });
  await filter.fill("n > 'abc'");
  await expect(page.getByRole('alert').filter({ hasText: 'position 5' })).toContainText("n holds numbers (integer); 'abc' is not a number");
  await filter.fill('n > 1000');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await filter.fill('');

  // the browser's locale decides the signs: read them as the page does
  const [group, decimal] = (await page.evaluate(`(() => {
    const parts = new Intl.NumberFormat().formatToParts(1234.5);
    return [parts.find((p) => p.type === 'group').value, parts.find((p) => p.type === 'decimal').value];
  })()`)) as [string, string];
  await setSeparators(page, true);
  await expect(await cellOf(grid, 'fee', 0)).toHaveText(`0${decimal}10`);
  await expect(await cellOf(grid, 'n', 0)).toHaveText(`1${group}234${group}567`);
  await expect(await cellOf(grid, 'big', 0)).toHaveText(['12', '345', '678', '901', '234', '567', '890', '123'].join(group));
  await expect(await cellOf(grid, 'x', 0)).toHaveText(`1${group}234${decimal}5`);

  expect(problems).toEqual([]);

  // kept after a restart, and off again at once
  await ownHost.restart();
  await page.goto(ownHost.url());
  await expect(executionState(page)).toHaveText('Completed');
  await expect(await cellOf(page.getByRole('grid'), 'n', 0)).toHaveText(`1${group}234${group}567`);
  await setSeparators(page, false);
  await expect(await cellOf(page.getByRole('grid'), 'n', 0)).toHaveText('1234567');
});

test('a filter the service refuses is shown at the filter bar, and the grid keeps the last good view', async ({ page, ownHost }) => {
  await runScratch(page, ownHost.url(), "SELECT range AS n, DATE '2024-01-01' + range::INTEGER AS day FROM range(100)");
  const summary = page.getByLabel('Result summary');
  const filter = page.getByRole('textbox', { name: 'Filter rows' });
  await filter.fill('n >= 90');
  await filter.press('Enter');
  await expect(summary).toContainText('10 of 100 rows');

  // starts as a date, so the live check lets it through; there is no 13th month
  await filter.fill("day = '2024-13-45'");
  await expect(page.getByRole('alert')).toHaveCount(0);
  await filter.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Conversion Error');
  await expect(summary).toContainText('10 of 100 rows');
  await expect(await cellOf(page.getByRole('grid'), 'n', 0)).toHaveText('90');
  await expect(filter).toHaveValue("day = '2024-13-45'");

  // mending the text clears the message; the mended filter applies
  await filter.fill("day = '2024-01-31'");
  await expect(page.getByRole('alert')).toHaveCount(0);
  await filter.press('Enter');
  await expect(summary).toContainText('1 of 100 rows');
  await expect(await cellOf(page.getByRole('grid'), 'n', 0)).toHaveText('30');
});
