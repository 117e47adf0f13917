import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { executionState, openQuery } from './helpers.ts';
import { test } from './own-host.ts';

// A schedule made from a query's menu, with a value changed in its form. Its slot is not waited
// for: while the host is stopped, the schedule's next run is put two hours back on disk, as after a
// laptop closed past it; the host starts, runs the missed slot once, and says so in the window.

/** The schedules file as the app closed past its slot would find it: the next run two hours ago. */
async function missSlot(dataDir: string): Promise<void> {
  const path = join(dataDir, 'core', 'schedules.jsonl');
  const past = new Date(Date.now() - 2 * 3_600_000).toISOString();
  const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
  await writeFile(path, lines.map((line) => `${JSON.stringify({ ...JSON.parse(line), nextRunAt: past })}\n`).join(''));
}

function notices(page: Page) {
  return page.getByRole('region', { name: 'Schedule notices' });
}

test('a schedule runs a missed slot once at the next start, notifies, and opens its result and the change', async ({ page, ownHost }) => {
  test.setTimeout(180_000);
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');

  // made from the query's menu, with the values in effect, one of them changed
  await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
  await page.getByRole('menuitem', { name: 'Schedule refreshes…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedules' });
  const form = dialog.getByRole('form', { name: 'Schedule of Daily volume by chain' });
  await expect(form.getByLabel('chain')).toHaveValue('ethereum');
  await form.getByLabel('chain').fill('base');
  await form.getByLabel('Refresh').selectOption('every N hours');
  await form.getByLabel('Every how many hours').fill('6');
  await form.getByRole('button', { name: 'Save schedule' }).click();
  const row = dialog.getByRole('row', { name: /Daily volume by chain/ });
  await expect(row).toContainText('every 6 hours');
  await expect(row).toContainText('Not run yet');
  await page.keyboard.press('Escape');

  // closed past its slot: run once at the start, said in the window even if it ended before the page opened
  await ownHost.restart(() => missSlot(ownHost.dataDir));
  await page.goto(ownHost.url());
  const notice = notices(page).getByRole('group', { name: 'Daily volume by chain refreshed' });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(notice).toContainText(/\d+ rows?\. \(every 6 hours\)/);
  const { violations } = await new AxeBuilder({ page }).include('[aria-label="Schedule notices"]').analyze();
  expect(violations.filter((v) => v.impact !== 'minor').map((v) => v.id)).toEqual([]);
  await notice.getByRole('button', { name: 'Open the result' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Daily volume by chain' })).toBeVisible();
  await expect(executionState(page)).toHaveText('Completed');
  await expect(notice).toHaveCount(0);

  // a second missed slot: its notice compares it with the first
  await ownHost.restart(() => missSlot(ownHost.dataDir));
  await page.goto(ownHost.url());
  const second = notices(page).getByRole('group', { name: 'Daily volume by chain refreshed' });
  await expect(second).toBeVisible({ timeout: 60_000 });
  await second.getByRole('button', { name: 'Compare runs' }).click();
  const comparing = page.getByRole('dialog', { name: 'Compare runs' });
  await expect(comparing.getByRole('region', { name: 'Comparison' })).toContainText('Run A (older)', { timeout: 60_000 });
  await page.keyboard.press('Escape');

  // the list, from the palette: next and last run; and each missed slot ran once, with the value set
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('combobox', { name: 'Find a command' }).fill('Schedules');
  await page.keyboard.press('Enter');
  const listed = page.getByRole('dialog', { name: 'Schedules' }).getByRole('row', { name: /Daily volume by chain/ });
  await expect(listed).toContainText('Completed');
  await expect(listed.getByRole('cell').nth(1)).not.toHaveText(/Stopped|Paused|—/);
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+R');
  const history = page.getByRole('dialog', { name: 'Run history' });
  await expect(history.getByRole('option')).toHaveCount(2);
  await expect(history.getByRole('option').first()).toContainText('chain = base');
});

test('a schedule of a query the service refuses stops, says why, and runs again once fixed and resumed', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
  await page.getByRole('menuitem', { name: 'Schedule refreshes…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedules' });
  await dialog.getByRole('button', { name: 'Save schedule' }).click();
  await expect(dialog.getByRole('row', { name: /Daily volume by chain/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // archived on the service, the query cannot be run (403): the schedule stops at its next chance
  await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await ownHost.restart(() => missSlot(ownHost.dataDir));
  await page.goto(ownHost.url());
  const notice = notices(page).getByRole('group', { name: 'Daily volume by chain: schedule stopped' });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await notice.getByRole('button', { name: 'Schedules…' }).click();
  const row = page.getByRole('dialog', { name: 'Schedules' }).getByRole('row', { name: /Daily volume by chain/ });
  await expect(row).toContainText('Stopped: The service does not allow running this query');
  await page.keyboard.press('Escape');

  // fixed (unarchived) and resumed, it runs at once; edited, it keeps its values under a new rule
  await page.getByRole('button', { name: 'Show archived (1)' }).click();
  await page
    .getByRole('listbox', { name: 'Queries' })
    .getByRole('option', { name: /^Daily volume by chain/ })
    .click();
  await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
  await page.getByRole('menuitem', { name: 'Unarchive' }).click();
  await expect(page.getByRole('button', { name: /archived \(/ })).toBeHidden();
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('combobox', { name: 'Find a command' }).fill('Schedules');
  await page.keyboard.press('Enter');
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row).toContainText('Completed', { timeout: 60_000 });
  await expect(row).not.toContainText('Stopped');
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Schedule of Daily volume by chain' });
  await expect(form.getByLabel('chain')).toHaveValue('ethereum');
  await form.getByLabel('Refresh').selectOption('daily at a time');
  await form.getByLabel('At (this computer’s time)').fill('07:30');
  await form.getByRole('button', { name: 'Save schedule' }).click();
  await expect(row).toContainText('daily at 07:30');
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog', { name: 'Schedules' }).getByText('No schedules yet.')).toBeVisible();
});
