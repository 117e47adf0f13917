import { expect, type Locator, type Page } from '@playwright/test';
import { cellOf, runScratch, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';

// Onchain values as analysts read them: bytes as 0x hex in a fixed face, cut in the middle when
// narrow and whole on hover and in every copy; addresses and hashes linked to their chain's block
// explorer; raw token amounts scaled by their decimals; nested values in a cell viewer. Until the
// embedded service speaks Dune's types, DuckDB's make them: a BLOB, a UHUGEINT, a list, a struct.

const WALLET = 'd8da6bf26964af9d7eed9e03e53415d37aa96045';
const UNI = '1f9840a85d5af5bf1d1762f925bdaddc4201f984';
const TX = '5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const SQL = `SELECT * FROM (
  SELECT 1 AS n, from_hex('${WALLET}') AS wallet, from_hex('${TX}') AS tx_hash, '1234567890123456789012345678'::UHUGEINT AS amount,
    [1, 2] AS ids, {'token': 'USDC', 'amounts': [10, 20]} AS detail, 'base' AS blockchain, '101'::BIT AS flags
  UNION ALL
  SELECT 2, from_hex('${UNI}'), from_hex('00'), 1500000000000000000::UHUGEINT, [], NULL, NULL, NULL
) ORDER BY n`;

async function clipboard(page: Page): Promise<string> {
  return String(await page.evaluate('navigator.clipboard.readText()'));
}

/** Opens a cell's (or header's) context menu and picks an item. */
async function pick(page: Page, target: Locator, menuName: string, item: string | RegExp): Promise<void> {
  await target.click({ button: 'right' });
  const menu = page.getByRole('menu', { name: menuName });
  await menu.getByRole('menuitem', { name: item }).click();
  await expect(menu).toBeHidden();
}

/** The address the app asked the browser to open: the browser host's page opens a tab of its own. */
async function openedLink(page: Page, open: () => Promise<void>): Promise<string> {
  const [tab] = await Promise.all([page.context().waitForEvent('page'), open()]);
  await tab.waitForURL(/^https:/);
  const url = tab.url();
  await tab.close();
  return url;
}

test('bytes show as 0x hex, whole on hover and in every copy, cut in the middle when narrow', async ({ page, context, ownHost }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = watchProblems(page);
  await runScratch(page, ownHost.url(), SQL);
  const grid = page.getByRole('grid');
  const wallet = await cellOf(grid, 'wallet', 0);
  await expect(wallet).toHaveText(`0x${WALLET}`);
  await expect(await cellOf(grid, 'tx_hash', 1)).toHaveText('0x00');
  await expect(wallet).toHaveCSS('font-family', /mono/i);
  // the biggest integers keep every digit, on the right
  const amount = await cellOf(grid, 'amount', 0);
  await expect(amount).toHaveText('1234567890123456789012345678');
  await expect(amount).toHaveCSS('text-align', 'right');

  // narrowed, the address keeps both its ends in sight; hovering shows it whole
  const handle = grid.getByRole('columnheader', { name: /^wallet/ }).locator('.ag-header-cell-resize');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 250, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const head = wallet.locator('.qd-middle-head');
  await expect.poll(() => head.evaluate((span) => span.scrollWidth > span.clientWidth)).toBe(true);
  await expect(wallet.locator('.qd-middle > span').last()).toHaveText(WALLET.slice(-4));
  await wallet.hover();
  await expect(page.locator('.ag-tooltip')).toHaveText(`0x${WALLET}`);

  // every copy format has the whole value
  await wallet.click();
  await page.keyboard.press('ControlOrMeta+C');
  await expect.poll(() => clipboard(page)).toBe(`wallet\n0x${WALLET}`);
  const expected: [RegExp, string][] = [
    [/^Copy as CSV/, `wallet\n0x${WALLET}`],
    [/^Copy as a Markdown table/, `| wallet |\n| --- |\n| 0x${WALLET} |`],
    [/^Copy as JSON rows/, JSON.stringify([{ wallet: `0x${WALLET}` }], null, 2)],
    [/^Copy as SQL VALUES/, `SELECT * FROM (VALUES\n  (0x${WALLET})\n) AS t("wallet")`],
  ];
  for (const [item, text] of expected) {
    await page.evaluate('navigator.clipboard.writeText("")');
    await pick(page, wallet, 'Cell actions', item);
    await expect.poll(() => clipboard(page)).toBe(text);
  }
  // the sample's own copy writes bytes as the cells show them too
  await page.getByRole('button', { name: 'Sample', exact: true }).click();
  await page.getByRole('button', { name: 'Draw sample' }).click();
  const sample = page.getByRole('grid').locator('visible=true');
  await expect(sample).toHaveAttribute('aria-rowcount', '3');
  await (await cellOf(sample, 'wallet', 0)).click();
  await page.keyboard.press('ControlOrMeta+C');
  // a click picks the whole row there
  await expect.poll(async () => (await clipboard(page)).split('\n')[1]?.split('\t')[1]).toMatch(/^0x[0-9a-f]{40}$/);
  await page.getByRole('button', { name: 'All rows' }).click();

  // a DuckDB type DuneSQL lacks (BIT) comes as varchar, its text kept: no unknown type to name
  await expect(grid.getByRole('columnheader', { name: /^flags/ })).toContainText('varchar');
  await expect(await cellOf(grid, 'flags', 0)).toHaveText('101');
  await expect(page.getByLabel('Result summary')).not.toContainText('unknown type');
  expect(problems).toEqual([]);
});

test("addresses and hashes open in their chain's explorer, in the system browser", async ({ page, ownHost }) => {
  const problems = watchProblems(page);
  await page.context().route(/^https:\/\//, (route) => route.fulfill({ contentType: 'text/html', body: '<title>explorer</title>' }));
  await runScratch(page, ownHost.url(), SQL);
  const grid = page.getByRole('grid');

  // the row names its chain
  expect(
    await openedLink(page, async () => pick(page, await cellOf(grid, 'wallet', 0), 'Cell actions', 'Open address in explorer (base)')),
  ).toBe(`https://basescan.org/address/0x${WALLET}`);
  expect(
    await openedLink(page, async () => pick(page, await cellOf(grid, 'tx_hash', 0), 'Cell actions', 'Open transaction in explorer (base)')),
  ).toBe(`https://basescan.org/tx/0x${TX}`);
  // the row's chain counts with its column hidden too
  await page.getByText(/^Columns/).click();
  await page.getByRole('group', { name: 'Columns to show' }).getByLabel('blockchain').uncheck();
  await expect(grid.getByRole('columnheader', { name: /^blockchain/ })).toHaveCount(0);
  await page.getByText(/^Columns/).click();
  expect(
    await openedLink(page, async () => pick(page, await cellOf(grid, 'wallet', 0), 'Cell actions', 'Open address in explorer (base)')),
  ).toBe(`https://basescan.org/address/0x${WALLET}`);
  await page.getByText(/^Columns/).click();
  await page.getByRole('group', { name: 'Columns to show' }).getByRole('button', { name: 'Show all' }).click();
  await expect(grid.getByRole('columnheader', { name: /^blockchain/ })).toHaveCount(1);
  await page.getByText(/^Columns/).click();

  // a byte is neither an address nor a hash
  await (await cellOf(grid, 'tx_hash', 1)).click({ button: 'right' });
  await expect(page.getByRole('menu', { name: 'Cell actions' }).getByRole('menuitem', { name: /explorer \(/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // a row without a chain takes the query's, chosen once and kept with its view
  const uni = await cellOf(grid, 'wallet', 1);
  expect(await openedLink(page, () => pick(page, uni, 'Cell actions', 'Open address in explorer (ethereum)'))).toBe(
    `https://etherscan.io/address/0x${UNI}`,
  );
  await pick(page, uni, 'Cell actions', 'Chain for explorer links (ethereum)…');
  const asked = page.getByRole('dialog', { name: 'Chain for explorer links' });
  await asked.getByLabel('Chain').selectOption('optimism');
  await asked.getByRole('button', { name: 'Apply' }).click();
  await expect(asked).toBeHidden();
  expect(await openedLink(page, () => pick(page, uni, 'Cell actions', 'Open address in explorer (optimism)'))).toBe(
    `https://optimistic.etherscan.io/address/0x${UNI}`,
  );

  // the Settings say where each chain's explorer is
  await page.keyboard.press('ControlOrMeta+Comma');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('textbox', { name: 'Address link for optimism' }).fill('https://explorer.example/optimism/{value}');
  await settings.getByRole('region', { name: 'Block explorers' }).getByRole('button', { name: 'Apply' }).click();
  await expect(settings.getByRole('status')).toHaveText('Block explorers saved.');
  await settings.getByRole('button', { name: 'Close' }).click();
  expect(await openedLink(page, () => pick(page, uni, 'Cell actions', 'Open address in explorer (optimism)'))).toBe(
    `https://explorer.example/optimism/0x${UNI}`,
  );

  await page.reload();
  await expect(await cellOf(page.getByRole('grid'), 'wallet', 1)).toHaveText(`0x${UNI}`);
  await (await cellOf(page.getByRole('grid'), 'wallet', 1)).click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: 'Open address in explorer (optimism)' })).toBeVisible();
  expect(problems).toEqual([]);
});

test("a big integer column's own filter compares every digit", async ({ page, ownHost }) => {
  const problems = watchProblems(page);
  await runScratch(page, ownHost.url(), SQL);
  const grid = page.getByRole('grid');
  await grid
    .getByRole('columnheader', { name: /^amount/ })
    .locator('.ag-header-cell-filter-button')
    .click();
  const value = page.getByLabel('Filter Value', { exact: true });
  // equal to the second row's amount, then to one more: a double reads both as 1.5e18
  await value.fill('1500000000000000000');
  await expect(grid).toHaveAttribute('aria-rowcount', '2');
  await expect(await cellOf(grid, 'n', 0)).toHaveText('2');
  await value.fill('1500000000000000001');
  await expect(grid).toHaveAttribute('aria-rowcount', '1');
  await value.fill('1234567890123456789012345678');
  await expect(await cellOf(grid, 'n', 0)).toHaveText('1');
  await expect(grid).toHaveAttribute('aria-rowcount', '2');
  expect(problems).toEqual([]);
});

test('a raw amount scaled by its decimals, exactly, in the header, the cells and the copy', async ({ page, context, ownHost }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await runScratch(page, ownHost.url(), SQL);
  const grid = page.getByRole('grid');
  await pick(page, grid.getByRole('columnheader', { name: /^amount/ }), 'Column amount', 'Scale by decimals…');
  const asked = page.getByRole('dialog', { name: 'Scale amount by decimals' });
  await expect(asked.getByRole('spinbutton')).toHaveValue('18');
  await asked.getByRole('button', { name: 'Apply' }).click();
  await expect(grid.getByRole('columnheader', { name: /^amount/ })).toContainText('amount ÷1e18');
  await expect(await cellOf(grid, 'amount', 0)).toHaveText('1234567890.123456789012345678');
  await expect(await cellOf(grid, 'amount', 1)).toHaveText('1.5');
  await (await cellOf(grid, 'amount', 0)).click();
  await page.keyboard.down('Shift');
  await (await cellOf(grid, 'amount', 1)).click();
  await page.keyboard.up('Shift');
  await pick(page, await cellOf(grid, 'amount', 1), 'Cell actions', /^Copy as SQL VALUES/);
  await expect.poll(() => clipboard(page)).toBe('SELECT * FROM (VALUES\n  (1234567890.123456789012345678),\n  (1.5)\n) AS t("amount")');

  // kept with the query's view; undone from the same menu
  await page.reload();
  await expect(await cellOf(page.getByRole('grid'), 'amount', 1)).toHaveText('1.5');
  await pick(page, page.getByRole('grid').getByRole('columnheader', { name: /^amount/ }), 'Column amount', 'Show raw values (not ÷1e18)');
  await expect(await cellOf(page.getByRole('grid'), 'amount', 1)).toHaveText('1500000000000000000');
});

test('nested values open in a cell viewer: formatted, foldable, searchable, copyable', async ({ page, context, ownHost }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = watchProblems(page);
  await runScratch(page, ownHost.url(), SQL);
  const grid = page.getByRole('grid');
  const detail = await cellOf(grid, 'detail', 0);
  await expect(detail).toHaveText('{"token":"USDC","amounts":[10,20]}');
  await detail.dblclick();
  const viewer = page.getByRole('dialog', { name: 'detail, row 1' });
  const value = viewer.getByRole('region', { name: 'Value' });
  await expect(value).toContainText('token: "USDC"');
  await expect(value.locator('details')).toHaveCount(2);
  await viewer.getByRole('button', { name: 'Collapse all' }).click();
  await expect(value.getByText('2 items')).toBeVisible();
  await expect(value.locator('details details')).not.toHaveAttribute('open');
  await viewer.getByRole('searchbox', { name: 'Search the value' }).fill('usdc');
  await expect(viewer.getByRole('status')).toHaveText('1 match');
  await expect(value.locator('mark')).toHaveText('USDC');
  await viewer.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => clipboard(page)).toBe('{\n  "token": "USDC",\n  "amounts": [\n    10,\n    20\n  ]\n}');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // from the keyboard: Enter on a list cell
  await (await cellOf(grid, 'ids', 0)).click();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'ids, row 1' }).getByRole('region', { name: 'Value' })).toContainText('0: 1');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // the focus goes back to the cell it was opened from
  await expect(await cellOf(grid, 'ids', 0)).toBeFocused();
  expect(problems).toEqual([]);
});

test('a grid of onchain values, light and dark', async ({ page, ownHost }, testInfo) => {
  await page.setViewportSize({ width: 1600, height: 640 });
  await runScratch(page, ownHost.url(), SQL);
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'wallet', 0)).toHaveText(`0x${WALLET}`);
  await pick(page, grid.getByRole('columnheader', { name: /^amount/ }), 'Column amount', 'Scale by decimals…');
  await page.getByRole('dialog', { name: 'Scale amount by decimals' }).getByRole('button', { name: 'Apply' }).click();
  await (await cellOf(grid, 'n', 0)).click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: testInfo.outputPath(`onchain-${scheme}.png`) });
  }
});
