import { expect, test, type Locator, type Page } from '@playwright/test';
import { answersOf, holdAnswers, noKeychainUrl } from './helpers.ts';

// Settings as a person uses them, in the browser host that the other specs leave alone (its data
// folder is its own, so a theme or proxy chosen here reaches no other test).

const DARK_BACKGROUND = 'rgb(27, 28, 31)';
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';

function background(page: Page): Promise<string> {
  return page.evaluate('getComputedStyle(document.documentElement).backgroundColor') as Promise<string>;
}

async function openSettingsByKeys(page: Page) {
  // the app is up once its title bar is (whichever account another spec left active)
  await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Comma');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Sees the proxy and the polling bounds kept shown, then clears the proxy, for the next test. */
async function keptThenCleared(settings: Locator, proxy: string): Promise<void> {
  await expect(settings.getByLabel('Proxy')).toHaveValue(proxy);
  await expect(settings.getByLabel('Check a running query at most every (s)')).toHaveValue('1');
  await settings.getByLabel('Proxy').fill('');
  await settings.getByRole('button', { name: 'Apply' }).first().click();
  await expect(settings.getByRole('status')).toHaveText('Proxy saved.');
}

test('opens with Ctrl+, and from the title bar; the theme applies at once and after a reload', async ({ page }) => {
  await page.goto(noKeychainUrl());
  let settings = await openSettingsByKeys(page);
  await expect(settings.getByTestId('about-version')).toHaveText(/^Querydesk \d+\.\d+\.\d+ \(browser host\)$/);

  await settings.getByLabel('Dark').check();
  await expect(settings.getByRole('status')).toHaveText('Theme saved.');
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
  await settings.getByRole('button', { name: 'Close' }).click();
  await expect(settings).toBeHidden();

  await page.reload();
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
  await page.getByRole('button', { name: 'Settings' }).click();
  settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings.getByLabel('Dark')).toBeChecked();
  await settings.getByLabel('Light').check();
  await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);
  await settings.getByLabel('Same as the system').check();
  await expect(settings.getByRole('status')).toHaveText('Theme saved.');
});

test('refuses a bad proxy or polling bounds with the reason, and keeps good ones', async ({ page }) => {
  await page.goto(noKeychainUrl());
  const settings = await openSettingsByKeys(page);
  const proxy = settings.getByLabel('Proxy');
  await proxy.fill('socks://corp:1080/path');
  await settings.getByRole('button', { name: 'Apply' }).first().click();
  await expect(settings.getByRole('alert')).toContainText('That setting was not saved.');
  await expect(settings.getByRole('alert')).toContainText('“proxy” must be empty (to use the system settings) or an address');

  await proxy.fill('http://127.0.0.1:3128');
  await settings.getByRole('button', { name: 'Apply' }).first().click();
  await expect(settings.getByRole('status')).toHaveText('Proxy saved.');

  await settings.getByLabel('Check a running query at most every (s)').fill('5');
  await settings.getByLabel('and at least every (s)').fill('2');
  await settings.getByRole('button', { name: 'Apply' }).nth(1).click();
  await expect(settings.getByRole('alert')).toContainText(
    'The “at most every” time of checks must not be longer than the “at least every” time.',
  );

  // a new page asks main again: what was kept is what shows
  await page.reload();
  const again = await openSettingsByKeys(page);
  await keptThenCleared(again, 'http://127.0.0.1:3128');
});

test('settings opened before they have come show what is kept once they come, not empty fields', async ({ page }) => {
  await page.goto(noKeychainUrl());
  const first = await openSettingsByKeys(page);
  await first.getByLabel('Proxy').fill('http://127.0.0.1:3129');
  await first.getByRole('button', { name: 'Apply' }).first().click();
  await expect(first.getByRole('status')).toHaveText('Proxy saved.');

  // the next page's settings are held back until its dialog is open, as on a slow start
  const release = await holdAnswers(page, 'settings:get');
  await page.reload();
  const settings = await openSettingsByKeys(page);
  await expect(settings).toContainText('Loading…');
  release();
  await keptThenCleared(settings, 'http://127.0.0.1:3129');
});

test('a size typed before the kept one has come stays as typed', async ({ page }) => {
  await page.goto(noKeychainUrl());
  const first = await openSettingsByKeys(page);
  await first.getByLabel('Ask before reading more datapoints than').fill('5000');
  await first.getByRole('button', { name: 'Apply' }).last().click();
  await expect(first.getByRole('status')).toHaveText('Size that asks first saved.');

  const release = await holdAnswers(page, 'usage:settings');
  await page.reload();
  const settings = await openSettingsByKeys(page);
  const size = settings.getByLabel('Ask before reading more datapoints than');
  await size.fill('123');
  release();
  // the kept size has come once the hint says it
  await expect(settings.getByText(/above 5,000 datapoints/)).toBeVisible();
  await expect(size).toHaveValue('123');
  await size.fill('1000000');
  await settings.getByRole('button', { name: 'Apply' }).last().click();
  await expect(settings.getByRole('status')).toHaveText('Size that asks first saved.');
});

test('a cache whose use could not be read says so, and offers no budget to overwrite', async ({ page }) => {
  await answersOf(page, 'results:cacheSettings', async () => ({ ok: false, error: { code: 'internal', message: 'disk I/O error' } }));
  await page.goto(noKeychainUrl());
  const settings = await openSettingsByKeys(page);
  await expect(settings.getByRole('alert')).toContainText('The results cache’s use and budget could not be read.');
  await expect(settings.getByRole('alert')).toContainText('disk I/O error');
  await expect(settings.getByLabel('Proxy')).toBeVisible();
  await expect(settings.getByLabel('Space for cached results (GB)')).toHaveCount(0);
});

test('shows the cache budget and use, changes the budget, and copies diagnostics without secrets', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(noKeychainUrl());
  const settings = await openSettingsByKeys(page);
  await expect(settings.getByTestId('cache-usage')).toContainText('used of 2.0 GB');
  await settings.getByLabel('Space for cached results (GB)').fill('1.5');
  await settings.getByRole('button', { name: 'Apply' }).nth(2).click();
  await expect(settings.getByTestId('cache-usage')).toContainText('used of 1.5 GB');
  await expect(settings.getByText(/To move it, quit Querydesk.*the app must be restarted/)).toBeVisible();
  await settings.getByLabel('Space for cached results (GB)').fill('2');
  await settings.getByRole('button', { name: 'Apply' }).nth(2).click();
  await expect(settings.getByTestId('cache-usage')).toContainText('used of 2.0 GB');

  await expect(settings.getByRole('button', { name: 'Open logs folder' })).toHaveCount(0);
  await settings.getByRole('button', { name: 'Copy diagnostics' }).click();
  await expect(settings.getByText('Copied: versions, system, settings (no keys) and recent errors.')).toBeVisible();
  const copied = String(await page.evaluate('navigator.clipboard.readText()'));
  expect(copied).toMatch(/^Querydesk \d+\.\d+\.\d+ \(browser host\)\nRuntime: Node /);
  expect(copied).toContain('Settings: {"theme":');
  expect(copied).not.toMatch(/token=/);
});
