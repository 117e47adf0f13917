import { expect, type Page } from '@playwright/test';
import { cellOf, executionState, openQuery, runScratch } from './helpers.ts';
import { test } from './own-host.ts';

// The run history (Ctrl/Cmd+R): every run of every query and scratch tab, found by any word of it,
// and opened again where it belongs. On a host of its own, so that it starts with no runs.

function historyDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Run history' });
}

test('finds runs by their words, opens each where it belongs, and keeps them after a restart', async ({ page, ownHost }) => {
  await runScratch(page, ownHost.url(), "SELECT 'needle' AS found, 6 * 7 AS answer");
  await openQuery(page, 'Daily volume by chain');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });

  // Ctrl+R opens it with the search focused (the page does not reload), newest first
  await page.keyboard.press('ControlOrMeta+R');
  const history = historyDialog(page);
  const search = history.getByRole('combobox', { name: 'Search the runs' });
  await expect(search).toBeFocused();
  const runs = history.getByRole('option');
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0)).toContainText('Daily volume by chain');
  await expect(runs.nth(0)).toContainText('chain = ethereum');
  await expect(runs.nth(1)).toContainText("SELECT 'needle' AS found");
  await expect(history.getByText('2 runs.')).toBeVisible();

  // every word must be found: the SQL's, the state's, the values'
  await search.fill('NEEDLE completed');
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText('1 row');
  await search.fill('needle ethereum');
  await expect(history.getByText('No run holds “needle ethereum”.')).toBeVisible();

  // SQL of no query opens in a new SQL tab, with its result
  await search.fill('needle');
  await expect(runs).toHaveCount(1);
  await search.press('Enter');
  await expect(history).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'SQL 2' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'SQL of SQL 2' })).toContainText("SELECT 'needle' AS found");
  await expect(await cellOf(page.getByRole('grid'), 'found', 0)).toHaveText('needle');

  // a query's run opens in the query's tab, from the palette too
  await page.keyboard.press('ControlOrMeta+K');
  await page.getByRole('combobox', { name: 'Find a command' }).fill('history');
  await page.keyboard.press('Enter');
  await historyDialog(page).getByRole('combobox', { name: 'Search the runs' }).fill('chain=ethereum');
  await historyDialog(page).getByRole('option').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Daily volume by chain' })).toBeVisible();
  await expect(executionState(page)).toHaveText('Completed');

  // kept on disk with each run: both are there after a restart
  await ownHost.restart();
  await page.goto(ownHost.url());
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+R');
  await expect(historyDialog(page).getByRole('option')).toHaveCount(2);
});
