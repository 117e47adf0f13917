import { expect, test, type Page } from '@playwright/test';
import { appUrl, HAS_TEST_KEYCHAIN, holdAnswers, noKeychainUrl, openQuery, otherService, runToPartialResult } from './helpers.ts';

// Accounts as a person manages them: add one for another service (a wrong key first), test it,
// switch to it, rename it, remove it; and, where no keychain is reachable, keep a key for the session.

async function openAccounts(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account/ }).click();
  await page.getByRole('menuitem', { name: 'Manage accounts…' }).click();
  await expect(page.getByRole('dialog', { name: 'Accounts' })).toBeVisible();
}

/** Fills the add form for the second service and submits it. */
async function addAccount(page: Page, label: string, apiKey: string): Promise<void> {
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await form.getByLabel('Name', { exact: true }).fill(label);
  await form.getByLabel('Service address').fill(otherService().url);
  await form.getByLabel('API key').fill(apiKey);
  await form.getByRole('button', { name: 'Add account', exact: true }).click();
}

function accountButton(page: Page) {
  return page.getByRole('button', { name: /^Account/ });
}

test('adds an account, refusing a wrong key, then tests, uses, renames and removes it', async ({ page }) => {
  test.skip(!HAS_TEST_KEYCHAIN && !process.env.CI, 'needs the throwaway Secret Service that `npm run test:e2e` starts');
  const other = otherService();
  await page.goto(appUrl());
  await openAccounts(page);
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await expect(accounts.getByRole('listitem', { name: 'Local' })).toContainText('In use');

  await accounts.getByRole('button', { name: 'Add account…' }).click();
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await expect(form.getByLabel('Service address')).toHaveValue('https://api.dune.com');
  await expect(form.getByLabel('Service name')).toHaveValue('DUNE');
  await expect(form.getByLabel('API key')).toHaveAttribute('type', 'password');
  await addAccount(page, 'Analytics', 'not-the-right-key');
  await expect(form.getByRole('alert')).toContainText('The account was not saved.');
  await expect(form.getByRole('alert')).toContainText('API key');
  await addAccount(page, 'Analytics', other.key);

  const row = accounts.getByRole('listitem', { name: 'Analytics' });
  await expect(row).toContainText(`••••${other.key.slice(-4)} in the system keychain`);
  await expect(row).toContainText(other.url);
  await expect(page.getByText(other.key)).toHaveCount(0);
  await row.getByRole('button', { name: 'Test' }).click();
  await expect(row.getByRole('status')).toContainText('Connected');

  await row.getByRole('button', { name: 'Use' }).click();
  await expect(row).toContainText('In use');
  await page.keyboard.press('Escape');
  await expect(accountButton(page)).toContainText('Analytics');
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option', { name: /Demo trades/ })).toBeVisible();

  // That service keeps only the start of a large result: its rows are shown once the user agrees.
  await openQuery(page, 'Demo trades');
  await runToPartialResult(page);

  // The switcher in the title bar goes back and forth.
  await accountButton(page).click();
  await page.getByRole('menuitemradio', { name: /Local/ }).click();
  await expect(accountButton(page)).toContainText('Local');
  await accountButton(page).click();
  await expect(page.getByRole('menuitemradio', { name: /Local/ })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitemradio', { name: /Analytics/ }).click();
  await expect(accountButton(page)).toContainText('Analytics');

  await openAccounts(page);
  await accounts.getByRole('listitem', { name: 'Analytics' }).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit “Analytics”' });
  await expect(edit.getByLabel('New API key')).toHaveValue('');
  await expect(edit.getByLabel('New API key')).toHaveAttribute('placeholder', `Leave empty to keep ••••${other.key.slice(-4)}`);
  await edit.getByLabel('Name', { exact: true }).fill('Team analytics');
  await edit.getByLabel('Team').check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const renamed = accounts.getByRole('listitem', { name: 'Team analytics' });
  await expect(renamed).toContainText('Team');
  await expect(accountButton(page)).toContainText('Team analytics');

  await renamed.getByRole('button', { name: 'Remove' }).click();
  await renamed.getByRole('button', { name: 'Keep it' }).click();
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Remove' }).click();
  await renamed.getByRole('button', { name: 'Remove account' }).click();
  await expect(renamed).toBeHidden();
  await expect(accounts.getByRole('listitem', { name: 'Local' })).toContainText('In use');
  await page.keyboard.press('Escape');
  await expect(accountButton(page)).toContainText('Local');
});

test('says plainly when there is no keychain, and keeps a key for this session only', async ({ page }) => {
  const other = otherService();
  await page.goto(noKeychainUrl());
  await openAccounts(page);
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await expect(accounts.getByRole('note')).toContainText('No system keychain is available here.');

  await accounts.getByRole('button', { name: 'Add account…' }).click();
  await addAccount(page, 'For today', other.key);
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await expect(form.getByRole('alert')).toContainText('The account was not saved.');
  await form.getByRole('button', { name: 'Keep this key for this session only' }).click();

  const row = accounts.getByRole('listitem', { name: 'For today' });
  await expect(row).toContainText(`••••${other.key.slice(-4)} for this session only`);
  await expect(page.getByText(other.key)).toHaveCount(0);
  await row.getByRole('button', { name: 'Use' }).click();
  await page.keyboard.press('Escape');
  await expect(accountButton(page)).toContainText('For today');
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option', { name: /Demo trades/ })).toBeVisible();
});

test('removes a session-only account where there is no keychain', async ({ page }) => {
  await page.goto(noKeychainUrl());
  await openAccounts(page);
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await accounts.getByRole('button', { name: 'Add account…' }).click();
  await addAccount(page, 'Short-lived', otherService().key);
  await page.getByRole('button', { name: 'Keep this key for this session only' }).click();
  const row = accounts.getByRole('listitem', { name: 'Short-lived' });
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Remove account' }).click();
  await expect(row).toBeHidden();
});

test('an account saved before its rates have come keeps the rates it had', async ({ page }) => {
  await page.goto(noKeychainUrl());
  await openAccounts(page);
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await accounts.getByRole('button', { name: 'Add account…' }).click();
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await form.getByLabel('Per datapoint').fill('0.0001');
  await addAccount(page, 'Priced', otherService().key);
  await form.getByRole('button', { name: 'Keep this key for this session only' }).click();
  await expect(accounts.getByRole('listitem', { name: 'Priced' })).toBeVisible();

  // a new page reads the rates again as the form opens: their answer is held back meanwhile
  const release = await holdAnswers(page, 'usage:settings');
  await page.reload();
  await openAccounts(page);
  await accounts.getByRole('listitem', { name: 'Priced' }).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit “Priced”' });
  await edit.getByLabel('Name', { exact: true }).fill('Priced team');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const renamed = accounts.getByRole('listitem', { name: 'Priced team' });
  await expect(renamed).toBeVisible();
  release();

  await renamed.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit “Priced team”' }).getByLabel('Per datapoint')).toHaveValue('0.0001');
  await page.getByRole('dialog', { name: 'Edit “Priced team”' }).getByRole('button', { name: 'Cancel' }).click();
  await renamed.getByRole('button', { name: 'Remove' }).click();
  await renamed.getByRole('button', { name: 'Remove account' }).click();
  await expect(renamed).toBeHidden();
});
