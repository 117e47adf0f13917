import { expect } from '@playwright/test';
import { executionState, openCompareRuns, openQuery, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// Two runs of one query with different parameter values, compared from Recent runs: the same
// columns, and by the day, the days whose counts changed, the changed cells marked.

test('compares two runs of a query by a key column', async ({ page, ownHost }) => {
  const problems = watchProblems(page);
  await page.goto(ownHost.url());
  await openQuery(page, 'Daily volume by chain');
  const run = async () => {
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  };
  await run();
  await page.getByRole('region', { name: 'Parameters' }).getByLabel('min_usd').fill('40000');
  await run();

  const dialog = await openCompareRuns(page);
  const runs = dialog.getByRole('group', { name: 'Pick two runs of this query' }).getByRole('checkbox');
  await expect(runs).toHaveCount(2);
  await expect(dialog.getByRole('button', { name: 'Compare' })).toBeDisabled();
  await runs.nth(0).check();
  await runs.nth(1).check();
  await dialog.getByRole('button', { name: 'Compare' }).click();

  const comparison = dialog.getByRole('region', { name: 'Comparison' });
  await expect(comparison).toContainText(/Run A \(older\): [\d,]+ rows · Run B \(newer\): [\d,]+ rows/);
  await expect(comparison.getByRole('list', { name: 'Column differences' })).toHaveText('The same columns and types.');
  await comparison.getByLabel('Match rows by').selectOption('day');
  await expect(comparison.getByRole('status', { name: 'Row differences' })).toHaveText(
    /^\d+ only in A · \d+ only in B · [1-9][\d,]* changed · \d+ the same$/,
  );
  const changed = comparison.getByRole('table', { name: 'Rows that differ' }).locator('.changed').first();
  await expect(changed).toContainText(/^trades \d+ → \d+$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(problems).toEqual([]);
});
