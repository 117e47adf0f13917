import { expect, type Locator, type Page } from '@playwright/test';
import { executionState, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// Tabs as in VS Code: a click previews, a double click keeps; each tab keeps its own editor and
// run; they come back, in their order, after a restart. Each test runs a browser host of its own
// (the Local account), so a restart is a real one and no other test's tabs are in the way.

function tabs(page: Page): Locator {
  return page.getByRole('tablist', { name: 'Open queries' });
}

function listed(page: Page, name: string): Locator {
  return page.getByRole('listbox', { name: 'Queries' }).getByRole('option', { name: new RegExp(`^${name}`) });
}

test('a click previews in one tab, a double click keeps it; tabs switch by keyboard and close with Ctrl+W', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await listed(page, 'Demo trades').click();
  await expect(tabs(page).getByRole('tab')).toHaveCount(1);
  await listed(page, 'Daily volume by chain').click();
  // The preview tab was reused.
  await expect(tabs(page).getByRole('tab')).toHaveText(['Daily volume by chain']);
  await listed(page, 'Daily volume by chain').dblclick();
  await listed(page, 'Demo trades').dblclick();
  await expect(tabs(page).getByRole('tab')).toHaveText(['Daily volume by chain', 'Demo trades']);
  await expect(tabs(page).getByRole('tab', { name: /^Demo trades/ })).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('Control+PageUp');
  await expect(page.getByRole('heading', { level: 1, name: 'Daily volume by chain' })).toBeVisible();
  await page.keyboard.press('Control+PageDown');
  await expect(page.getByRole('heading', { level: 1, name: 'Demo trades' })).toBeVisible();

  // Each tab keeps its own editor: an edit in one is not in the other.
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, 'SELECT 1 AS edited');
  await expect(tabs(page).getByRole('tab', { name: /Demo trades/ })).toContainText('(unsaved)');
  await page.keyboard.press('Control+PageUp');
  await expect(page.getByRole('textbox', { name: 'SQL of Daily volume by chain' })).toContainText('date_trunc');

  // Closing the edited tab asks first.
  await page.keyboard.press('Control+PageDown');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+W');
  const ask = page.getByRole('dialog', { name: 'Save changes to “Demo trades”?' });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(tabs(page).getByRole('tab')).toHaveCount(2);
  // as a person would: back in the editor, then close again
  await editor.click();
  // the edited text runs and fails; discarded, its error goes with it
  await replaceSql(page, editor, 'SELECT 1 AS edited, nope');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Failed', { timeout: 45_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'nope' })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+W');
  await ask.getByRole('button', { name: 'Don’t save' }).click();
  await expect(tabs(page).getByRole('tab')).toHaveText(['Daily volume by chain']);
  await expect(page.getByRole('heading', { level: 1, name: 'Daily volume by chain' })).toBeVisible();
  await listed(page, 'Demo trades').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Demo trades' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'SQL of Demo trades' })).toContainText('5,000 synthetic trades');
  await expect(page.getByRole('alert').filter({ hasText: 'nope' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show in the SQL' })).toHaveCount(0);
});

test('a run goes on in a background tab, and the tabs come back in their order after a restart', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  await listed(page, 'Slow checksum').dblclick();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText(/Queued|Running/);
  await listed(page, 'Demo trades').dblclick();
  await listed(page, 'Daily volume by chain').dblclick();
  // The slow run's tab shows its state while another tab is in front.
  const slowTab = tabs(page).getByRole('tab', { name: /Slow checksum/ });
  await expect(slowTab.locator('[title="Running"], [title="Queued"]')).toBeVisible();

  // Drag the last tab to the front.
  await tabs(page)
    .getByRole('tab', { name: /Daily volume by chain/ })
    .dragTo(slowTab);
  await expect(tabs(page).getByRole('tab')).toHaveText(['Daily volume by chain', 'Slow checksum', 'Demo trades']);
  // Back on its tab, the run is still going; it is stopped there.
  await tabs(page)
    .getByRole('tab', { name: /Slow checksum/ })
    .click();
  await expect(executionState(page)).toHaveText('Running', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(executionState(page)).toHaveText('Cancelled', { timeout: 30_000 });

  await ownHost.restart();
  await page.goto(ownHost.url());
  await expect(tabs(page).getByRole('tab')).toHaveText(['Daily volume by chain', 'Slow checksum', 'Demo trades']);
  await expect(tabs(page).getByRole('tab', { name: /Slow checksum/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { level: 1, name: 'Slow checksum' })).toBeVisible();
  await tabs(page)
    .getByRole('tab', { name: /Demo trades/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Demo trades' })).toBeVisible();
});
