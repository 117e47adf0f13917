import { expect, type Page } from '@playwright/test';
import { executionState, openQuery, otherService } from './helpers.ts';
import { test } from './own-host.ts';

// What a result costs, before and after: its size shown from the status alone, a read above the
// size that asks first held until agreed (cancelled, nothing is read), and the usage page counting
// the runs and reads. On a host of its own, so that its usage starts at nothing, with an account
// for the second service: the embedded Local service bills nothing, and never asks first.

/** Adds an account for the second service and makes it the one in use; its own host has no keychain, so its key is kept for the session. */
async function useBilledAccount(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account/ }).click();
  await page.getByRole('menuitem', { name: 'Manage accounts…' }).click();
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await accounts.getByRole('button', { name: 'Add account…' }).click();
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await form.getByLabel('Name', { exact: true }).fill('Billed');
  await form.getByLabel('Service address').fill(otherService().url);
  await form.getByLabel('API key').fill(otherService().key);
  await form.getByRole('button', { name: 'Add account', exact: true }).click();
  await form.getByRole('button', { name: 'Keep this key for this session only' }).click();
  const row = accounts.getByRole('listitem', { name: 'Billed' });
  await row.getByRole('button', { name: 'Use' }).click();
  await expect(row).toContainText('In use');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /^Account/ })).toContainText('Billed');
}

async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
}

/** The usage page's totals, from the account menu. */
async function usageTotals(page: Page): Promise<string> {
  await page.getByRole('button', { name: /^Account/ }).click();
  await page.getByRole('menuitem', { name: 'Usage and costs…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Usage of “Billed”' });
  const totals = dialog.getByLabel('Month’s totals');
  await expect(totals).toBeVisible();
  const text = (await totals.textContent()) ?? '';
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  return text.replace(/\s+/g, ' ').trim();
}

test('shows a result’s size, asks before a large read, and counts runs and reads', async ({ page, ownHost }) => {
  test.setTimeout(120_000);
  await page.goto(ownHost.url());
  await useBilledAccount(page);
  await openQuery(page, 'Daily volume by chain');
  await run(page);
  const status = page.getByLabel('Result summary');
  const datapoints = status.getByLabel('Datapoints');
  await expect(datapoints).toHaveText(/^[\d,.\s]+ datapoints$/);
  const size = Number((await datapoints.textContent())!.replace(/\D/g, ''));
  expect(size).toBeGreaterThan(1);
  await expect(page.getByRole('grid')).toBeVisible();
  // read whole into the cache: nothing of this run is read after this
  await expect(status).toContainText('from cache');

  // a size that asks first below this result's
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByLabel('Ask before reading more datapoints than').fill('1');
  await settings.getByRole('button', { name: 'Apply' }).last().click();
  await expect(settings.getByText(/above 1 datapoint shows/)).toBeVisible();
  await settings.getByRole('button', { name: 'Close' }).click();
  await expect(settings).toBeHidden();
  const before = await usageTotals(page);
  expect(before).toMatch(/^1 execution /);

  await run(page);
  const held = page.getByRole('region', { name: 'Result not read yet' });
  await held.getByRole('button', { name: 'Read the result…' }).click();
  const asking = page.getByRole('dialog', { name: /^Read [\d,.\s]+ datapoints\?$/ });
  await expect(asking).toBeVisible();
  await expect(asking.getByLabel('Size of the read')).toContainText(`${size.toLocaleString('en-US')} datapoints`);
  await asking.getByRole('button', { name: 'Cancel' }).click();
  await expect(asking).toBeHidden();
  await expect(held).toContainText(`${size.toLocaleString('en-US')} datapoints`);
  await expect(page.getByRole('grid')).toHaveCount(0);
  // the second run is counted, and not a datapoint more was read
  const afterCancel = await usageTotals(page);
  expect(afterCancel).toBe(before.replace(/^1 execution /, '2 executions '));

  // agreed to, it is read
  await held.getByRole('button', { name: 'Read the result…' }).click();
  await page
    .getByRole('dialog', { name: /^Read / })
    .getByRole('button', { name: 'Read', exact: true })
    .click();
  await expect(page.getByRole('grid')).toBeVisible();
  await expect(status.getByLabel('Datapoints')).toHaveText(/datapoints$/);

  // the usage page, from the palette too: both runs of the query, by day and by query
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('combobox', { name: 'Find a command' }).fill('usage');
  await page.keyboard.press('Enter');
  const usage = page.getByRole('dialog', { name: 'Usage of “Billed”' });
  await expect(usage.getByLabel('Month’s totals')).toContainText('2 executions');
  const byQuery = usage.getByRole('table', { name: 'By query' });
  await expect(byQuery.getByRole('row', { name: /Daily volume by chain/ })).toContainText('2');
  await expect(usage.getByRole('table', { name: 'By day' }).getByRole('row')).toHaveCount(2);
});

test('asks before an export from the service, saying how much fewer columns lower it', async ({ page, ownHost }) => {
  test.setTimeout(120_000);
  await page.goto(ownHost.url());
  await useBilledAccount(page);
  // no room in the cache: the result is read page by page from the service, and so is its export
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  for (const [label, value] of [
    ['Space for cached results (GB)', '0'],
    ['Ask before reading more datapoints than', '10'],
  ] as const) {
    const form = settings.locator('form', { has: page.getByLabel(label) });
    await form.getByLabel(label).fill(value);
    await form.getByRole('button', { name: 'Apply' }).click();
  }
  await expect(settings.getByText(/above 10 datapoints shows/)).toBeVisible();
  await settings.getByRole('button', { name: 'Close' }).click();

  await openQuery(page, 'Daily volume by chain');
  await run(page);
  await page.getByRole('region', { name: 'Result not read yet' }).getByRole('button', { name: 'Read the result…' }).click();
  await page
    .getByRole('dialog', { name: /^Read / })
    .getByRole('button', { name: 'Read', exact: true })
    .click();
  const status = page.getByLabel('Result summary');
  await expect(status).toContainText('read page by page from the service');
  const all = Number((await status.getByLabel('Datapoints').textContent())!.replace(/\D/g, ''));

  await page.locator('summary', { hasText: 'Columns' }).click();
  await page.getByRole('checkbox', { name: /^trades/ }).uncheck();
  await page.keyboard.press('Escape');
  await page.getByText('Export CSV', { exact: true }).click();
  await page.getByRole('button', { name: /^Current view/ }).click();
  const fewer = ((all / 3) * 2).toLocaleString('en-US');
  const asking = page.getByRole('dialog', { name: `Export ${fewer} datapoints?` });
  await expect(asking).toContainText(`2 of 3 columns: ${fewer} datapoints instead of ${all.toLocaleString('en-US')}`);
  await asking.getByRole('button', { name: 'Cancel' }).click();
  await expect(asking).toBeHidden();
  await expect(page.getByRole('status', { name: 'Export progress' })).toHaveText('');
});
