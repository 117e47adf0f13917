import { expect, type Page } from '@playwright/test';
import { executionState, openQuery } from './helpers.ts';
import { test } from './own-host.ts';

// Freshness (issue 36): with a max age, Run uses the service's latest result of the same values
// instead of starting an execution, until Shift+Run; the result says how old it is and when it
// expires, and a pinned result says until when the cache keeps it. On a host of its own, so that
// it starts with no runs: the run history counts every execution the app started.

/** The executions the app started, as the run history counts them (Ctrl/Cmd+R): `count` of them. */
async function expectRunsStarted(page: Page, count: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+R');
  const history = page.getByRole('dialog', { name: 'Run history' });
  await expect(history.getByText(count, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(history).toHaveCount(0);
}

test('uses the latest result of the same values within the max age, runs again on Shift+Run, and pins it', async ({ page, ownHost }) => {
  // three runs and a restart of the host
  test.setTimeout(120_000);
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  const executionId = page.getByTitle('Execution id');

  // a max age of an hour, from the Run button's menu
  await page.getByRole('button', { name: 'Result freshness' }).click();
  await page.getByRole('menuitem', { name: 'Max age of results… (none)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Max age of results' });
  await dialog.getByLabel('Max age').selectOption({ label: '1 h' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);

  // no result of these values yet: Run runs
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const first = (await executionId.textContent()) ?? '';
  await expect(page.getByTestId('result-freshness')).toHaveText(/^ran .+ ago · expires in (89|90) days$/);
  await expectRunsStarted(page, '1 run.');

  // Run again: the latest result is young enough, so it is used and nothing starts
  const useLatest = page.getByRole('button', { name: /^Use latest, .+ old — Shift\+Run to run again/ });
  await useLatest.click();
  await expect(page.getByText(/^Run used the service’s latest result of these values/)).toBeVisible();
  await expect(executionId).toHaveText(first);
  await expectRunsStarted(page, '1 run.');

  // other values have no latest result: Run runs for them
  const fields = page.getByRole('region', { name: 'Parameters' });
  await fields.getByLabel('chain').selectOption('base');
  await expect(page.getByRole('button', { name: /^Run/ })).toBeVisible();
  await fields.getByLabel('chain').selectOption('ethereum');

  // Shift+Run runs anyway: a new execution
  await useLatest.click({ modifiers: ['Shift'] });
  await expect(executionId).not.toHaveText(first);
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expectRunsStarted(page, '2 runs.');
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option', { name: /^Daily volume by chain/ })).toContainText(
    /ran .+ ago · expires in (89|90) days/,
  );

  // pinned from the palette: the status line says until when the cache keeps it
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('combobox', { name: 'Find a command' }).fill('Pin the result');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Pinned — kept until /)).toBeVisible();

  // after a restart: opening the query shows its latest result, Run would use it, and the pin holds
  const second = (await executionId.textContent()) ?? '';
  await ownHost.restart();
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  await expect(executionId).toHaveText(second);
  await expect(useLatest).toBeVisible();
  await expect(page.getByText(/^Pinned — kept until /)).toBeVisible();
  await page.getByRole('button', { name: 'Result freshness' }).click();
  await page.getByRole('menuitem', { name: 'Unpin the result' }).click();
  await expect(page.getByText(/^Pinned — kept until /)).toHaveCount(0);

  // from the editor's keys too: Ctrl/Cmd+Enter uses the latest, Shift+Ctrl/Cmd+Enter runs again
  await page.getByRole('textbox', { name: 'SQL of Daily volume by chain' }).focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByText(/^Run used the service’s latest result of these values/)).toBeVisible();
  await expect(executionId).toHaveText(second);
  await page.keyboard.press('Shift+ControlOrMeta+Enter');
  await expect(executionId).not.toHaveText(second);
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expectRunsStarted(page, '3 runs.');
});
