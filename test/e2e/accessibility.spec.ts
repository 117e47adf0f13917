import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { executionState, openCompareRuns, openQuery } from './helpers.ts';
import { test } from './own-host.ts';

// axe-core on every screen and dialog, light and dark: no critical, serious or moderate violation.
// Each screen's findings are gathered first, so one run names them all.

const BLOCKING = new Set(['critical', 'serious', 'moderate']);

async function check(page: Page, screen: string, found: string[]): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  for (const violation of violations) {
    if (!BLOCKING.has(violation.impact ?? '')) continue;
    const where = violation.nodes
      .slice(0, 3)
      .map((node) => node.target.join(' '))
      .join(', ');
    found.push(`${screen}: ${violation.id} (${violation.impact}, ${violation.nodes.length}×) at ${where}`);
  }
}

async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
}

/** A command of the palette, by its title. */
async function command(page: Page, title: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+K');
  const palette = page.getByRole('dialog', { name: 'Commands' });
  await palette.getByRole('combobox').fill(title);
  await palette.getByRole('option', { name: new RegExp(`^${title}`) }).click();
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every screen and dialog passes axe-core, ${colorScheme}`, async ({ page, ownHost }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme });
    const found: string[] = [];
    await page.goto(ownHost.url());

    await openQuery(page, 'Daily volume by chain');
    await run(page);
    await page.getByRole('region', { name: 'Parameters' }).getByLabel('min_usd').fill('40000');
    await run(page);
    await check(page, 'query with result', found);

    await page.getByRole('button', { name: 'Profile', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Profile', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await check(page, 'profile', found);
    await page.getByRole('button', { name: 'Chart', exact: true }).click();
    await page.getByRole('button', { name: 'Draw' }).click();
    await expect(page.locator('figure figcaption')).toContainText('chart');
    await check(page, 'chart', found);
    const modes = page.getByRole('group', { name: 'Result view' });
    await modes.getByRole('button', { name: 'Pivot', exact: true }).click();
    await page.getByRole('form', { name: 'Pivot settings' }).getByRole('button', { name: 'Pivot', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Pivot of the result' })).toBeVisible();
    await check(page, 'pivot', found);
    await page.getByRole('button', { name: 'All rows', exact: true }).click();

    const comparing = await openCompareRuns(page);
    const runs = comparing.getByRole('group', { name: 'Pick two runs of this query' }).getByRole('checkbox');
    await runs.nth(0).check();
    await runs.nth(1).check();
    await comparing.getByRole('button', { name: 'Compare' }).click();
    await expect(comparing.getByRole('region', { name: 'Comparison' })).toContainText('Run A');
    await check(page, 'compare', found);
    await page.keyboard.press('Escape');
    await expect(comparing).toBeHidden();

    await page.keyboard.press('ControlOrMeta+K');
    await expect(page.getByRole('dialog', { name: 'Commands' })).toBeVisible();
    await check(page, 'palette', found);
    await page.keyboard.press('Escape');

    await page.keyboard.press('ControlOrMeta+R');
    await expect(page.getByRole('dialog', { name: 'Run history' }).getByRole('option')).toHaveCount(2);
    await check(page, 'history', found);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'More actions for Daily volume by chain' }).click();
    await page.getByRole('menuitem', { name: 'Schedule refreshes…' }).click();
    const scheduling = page.getByRole('dialog', { name: 'Schedules' });
    await scheduling.getByLabel('Notify').selectOption('only when a column’s figure crosses a threshold');
    await scheduling.getByLabel('Of the column').fill('volume_usd');
    await scheduling.getByLabel('Threshold').fill('1000');
    await check(page, 'schedule form', found);
    await scheduling.getByRole('button', { name: 'Save schedule' }).click();
    await expect(scheduling.getByRole('row', { name: /Daily volume by chain/ })).toBeVisible();
    await check(page, 'schedules', found);
    await page.keyboard.press('Escape');

    await command(page, 'Max age of results…');
    await expect(page.getByRole('dialog', { name: 'Max age of results' })).toBeVisible();
    await check(page, 'max age', found);
    await page.keyboard.press('Escape');

    await command(page, 'Versions of the query');
    await expect(
      page
        .getByRole('dialog', { name: /^Versions of/ })
        .getByRole('checkbox')
        .first(),
    ).toBeVisible();
    await check(page, 'versions', found);
    await page.keyboard.press('Escape');
    await page.locator('summary', { hasText: 'Sets' }).click();
    await expect(page.getByRole('group', { name: 'Parameter sets' })).toBeVisible();
    await check(page, 'parameter sets', found);
    await page.keyboard.press('Escape');

    await command(page, 'Keyboard shortcuts');
    await expect(page.getByRole('dialog', { name: /shortcuts/i })).toBeVisible();
    await check(page, 'shortcuts', found);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('menuitem', { name: 'Manage accounts…' }).click();
    await expect(page.getByRole('dialog', { name: 'Accounts' })).toBeVisible();
    await check(page, 'accounts', found);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
    await check(page, 'settings', found);
    await page.keyboard.press('Escape');

    await command(page, 'Usage and costs');
    await expect(page.getByRole('dialog', { name: /^Usage of/ }).getByLabel('Month’s totals')).toContainText('2 executions');
    await check(page, 'usage', found);
    await page.keyboard.press('Escape');

    await command(page, 'New local SQL');
    await page.getByRole('complementary', { name: 'Cached results' }).locator('summary').first().click();
    await run(page);
    await check(page, 'local SQL', found);

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Tables' }).click();
    const tables = page.getByRole('main', { name: 'Tables' });
    await expect(tables.getByRole('heading', { name: 'Tables', level: 1 })).toBeVisible();
    await check(page, 'tables', found);
    await page
      .getByLabel('Choose a CSV file…')
      .setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('day,price\n2024-01-01,2300.5\n') });
    await expect(tables.getByRole('table', { name: 'Preview of the file' })).toContainText('price');
    await check(page, 'upload', found);

    expect(found, 'critical, serious and moderate axe-core violations').toEqual([]);
  });
}
