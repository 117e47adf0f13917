import { expect } from '@playwright/test';
import { cellOf, executionState, openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// Run runs what the editor shows: the edited text, or only the selection, without saving it.

test('runs the edited SQL without saving it, then only the selected part', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Demo trades');
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, "select 'edited' as what, 42 as answer\nunion all select 'second', 43");
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'what', 0)).toHaveText('edited');
  await expect(page.getByLabel('Result summary')).toContainText('2 rows');
  // the filter's example names this result's columns, not the demo query's
  await expect(page.getByRole('textbox', { name: 'Filter rows' })).toHaveAttribute(
    'placeholder',
    "Filter: what = 'abc' AND answer > 100   (Enter applies)",
  );
  // nothing was saved: the query still says so, and its saved SQL is unchanged after a reload
  await expect(page.getByRole('heading', { level: 1, name: 'Demo trades' })).toContainText('Edited');

  // only the first line, selected with the keyboard
  await editor.click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('Shift+End');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expect(page.getByLabel('Result summary')).toContainText('1 row');
  await expect(await cellOf(grid, 'answer', 0)).toHaveText('42');

  // Recent runs tells these runs of text from runs of the saved query; Escape closes the list
  const recent = page.getByRole('button', { name: /Recent runs/ });
  await recent.click();
  await expect(page.getByRole('list', { name: 'Recent runs' })).toContainText("edited SQL: select 'edited' as what, 42 as answer");
  await page.keyboard.press('Escape');
  await expect(page.getByRole('list', { name: 'Recent runs' })).toBeHidden();
  await expect(recent).toBeFocused();
});

test("maps an error's position in the SQL that ran back to the editor, values and selection included", async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  const editor = page.getByRole('textbox', { name: 'SQL of Daily volume by chain' });
  // the chain value is longer than its placeholder, and the error is on the line after it
  await replaceSql(page, editor, "select '{{chain}}' as c,\n  {{min_usd}} as m, nope");
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Failed', { timeout: 45_000 });
  const problem = page.getByRole('alert').filter({ hasText: 'nope' });
  // `nope` is at column 21 of line 2 in the editor, whatever the value of min_usd
  await expect(problem).toContainText('at line 2, column 21');
  await problem.getByRole('button', { name: 'Show in the SQL' }).click();
  await expect(editor).toBeFocused();
});

test('Escape cancels the running query at once, and asks first when it has run for more than 10 s', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await openQuery(page, 'Slow checksum');
  // ten times the work, so that it is surely still running after the 10 s waited below
  await replaceSql(
    page,
    page.getByRole('textbox', { name: 'SQL of Slow checksum' }),
    'SELECT sum(hash(i) % 1000) AS checksum FROM range(30000000000) AS t(i)',
  );
  const run = page.getByRole('button', { name: /^Run/ });
  await run.click();
  await expect(executionState(page)).toHaveText('Running', { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(executionState(page)).toHaveText('Cancelled', { timeout: 30_000 });

  await run.click();
  await expect(executionState(page)).toHaveText('Running', { timeout: 30_000 });
  await page.waitForTimeout(10_500);
  const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
  await cancel.focus();
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Cancel the run of “Slow checksum”?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep running' }).click();
  await expect(ask).toBeHidden();
  await expect(executionState(page)).toHaveText('Running');
  // the focus is back where it was before the question
  await expect(cancel).toBeFocused();

  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Cancel the run' }).click();
  await expect(executionState(page)).toHaveText('Cancelled', { timeout: 30_000 });
});
