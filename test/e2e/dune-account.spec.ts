import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { FED_ENUM } from '../dune-shapes/dune-parameter.ts';
import { duneResultSql, PAST_128_BITS, UINT256_MAX } from '../dune-shapes/dune-result-sql.ts';
import { startDuneShapes, type DuneShapes } from '../dune-shapes/dune-shapes-proxy.ts';
import { cellOf, executionState, loadedCellText, openQuery, runToPartialResult, watchProblems } from './helpers.ts';
import { test } from './own-host.ts';
import { service, stop, type Started } from './processes.ts';

// An account on a service that answers as the hosted one does (the Dune-shapes stand-in: Dune's
// type names, integers as bare JSON numbers, CSV pages only), used as an analyst would: a result
// of varbinary, uint256, int256, timestamp(3) with time zone, arrays, rows and decimal(38,18),
// sorted, filtered, profiled, charted, copied, exported and linked to a block explorer; and a
// query whose parameters carry Dune's fields, edited without losing them; and a result Dune
// truncated, shown as partial.

const ROWS = 200;
let remote: Started;
let shapes: DuneShapes;
let dir: string;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'querydesk-dune-account-'));
  remote = await service(join(dir, 'service'), 'The service behind the Dune stand-in');
  shapes = await startDuneShapes(remote.match[1]!);
});
test.afterAll(async () => {
  await shapes?.close();
  if (remote) await stop(remote.child);
  await rm(dir, { recursive: true, force: true });
});

/** An account named Dune on the stand-in (in front of `remote`, or of another service as given). */
async function addDuneAccount(page: Page, baseUrl = shapes.baseUrl, apiKey = remote.match[2]!): Promise<void> {
  await page.getByRole('button', { name: /^Account/ }).click();
  await page.getByRole('menuitem', { name: 'Manage accounts…' }).click();
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await accounts.getByRole('button', { name: 'Add account…' }).click();
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await form.getByLabel('Name', { exact: true }).fill('Dune');
  await form.getByLabel('Service address').fill(baseUrl);
  await form.getByLabel('API key').fill(apiKey);
  await form.getByRole('button', { name: 'Add account', exact: true }).click();
  // this host finds no keychain: the key is kept for the session
  await form.getByRole('button', { name: 'Keep this key for this session only' }).click();
  await accounts.getByRole('listitem', { name: 'Dune' }).getByRole('button', { name: 'Use' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /^Account/ })).toContainText('Dune');
}

/** The stand-in's HTTP API with the account's key, as Dune's web app or another client would use it. */
async function dune(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${shapes.baseUrl}/api/v1${path}`, {
    method,
    headers: { 'x-dune-api-key': remote.match[2]!, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

async function columnTexts(grid: Locator, column: string, rows: number): Promise<string[]> {
  const texts: string[] = [];
  for (let row = 0; row < rows; row++) texts.push(await loadedCellText(grid, column, row));
  return texts;
}

test('a Dune result: sorted, filtered, profiled, charted, copied, exported and linked as its types say', async ({
  page,
  context,
  ownHost,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await context.route(/^https:\/\//, (route) => route.fulfill({ contentType: 'text/html', body: '<title>explorer</title>' }));
  const problems = watchProblems(page);
  await page.goto(ownHost.url());
  await addDuneAccount(page);

  await page.keyboard.press('ControlOrMeta+N');
  await expect(page.getByRole('textbox', { name: 'SQL of SQL 1' })).toBeFocused();
  // with a column of a type the app cannot read (Trino's ipaddress), to be named under the result
  await page.keyboard.insertText(
    duneResultSql(ROWS).replace(' AS "blockchain::varchar"', ` AS "blockchain::varchar",\n  '10.0.0.1' AS "ip::ipaddress"`),
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed');
  await expect(page.getByLabel('Result summary')).toContainText('from cache, fetched', { timeout: 30_000 });
  expect(shapes.requests.some((r) => r.path.includes('/results/csv'))).toBe(true);
  await expect(page.getByLabel('Result summary')).toContainText('1 column of an unknown type, kept as text');

  // every digit and byte, as Dune sent them
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'holder', 0)).toHaveText('0x0000000000000000000000000000000000000001');
  await expect(await cellOf(grid, 'amount', 2)).toHaveText(UINT256_MAX);
  await expect(await cellOf(grid, 'delta', 0)).toHaveText(`-1${PAST_128_BITS}`);
  await expect(await cellOf(grid, 'price', 0)).toHaveText('1.123456789012345678');

  // sorted as numbers: ascending from 0, and 2^256 - 1 first when descending (as text, 9… would be)
  const amountHeader = grid.getByRole('columnheader', { name: /^amount/ });
  await amountHeader.locator('.ag-header-cell-label').click();
  await expect(amountHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(await cellOf(grid, 'amount', 0)).toHaveText('0');
  const ascending = (await columnTexts(grid, 'amount', 12)).map((text) => BigInt(text));
  expect(ascending).toEqual([...ascending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  await amountHeader.locator('.ag-header-cell-label').click();
  await expect(amountHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(await cellOf(grid, 'amount', 0)).toHaveText(UINT256_MAX);

  // filtered as numbers, past 128 bits
  const filter = page.getByRole('textbox', { name: 'Filter rows' });
  await filter.fill(`amount > ${PAST_128_BITS}`);
  await filter.press('Enter');
  const past = Array.from({ length: ROWS }, (_, k) => k + 1).filter((i) => i % 10 !== 0 && (i % 4 === 2 || i % 4 === 3)).length;
  await expect(page.getByLabel('Result summary').getByLabel('Rows shown')).toHaveText(`${past} of ${ROWS} rows`);
  await filter.fill('');
  await filter.press('Enter');

  // profiled as numbers
  await amountHeader.click({ button: 'right' });
  await page.getByRole('menu', { name: 'Column amount' }).getByRole('menuitem', { name: 'Profile of amount' }).click();
  const profile = page.getByRole('region', { name: 'Profile of amount' });
  await expect(profile.getByRole('list', { name: 'Histogram of amount' }).getByRole('listitem')).toHaveCount(20);
  await expect(profile).toContainText(UINT256_MAX);

  // charted: the sum of uint256 amounts is a double's estimate, and says so
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const settings = page.getByRole('form', { name: 'Chart settings' });
  await settings.getByLabel('Type').selectOption('bar');
  await settings.getByLabel('X axis').selectOption('blockchain');
  for (const box of await settings.getByRole('checkbox').all()) await box.uncheck();
  await settings.getByRole('checkbox', { name: 'amount', exact: true }).check();
  await settings.getByLabel('Aggregation').selectOption('sum');
  await settings.getByRole('button', { name: 'Draw' }).click();
  await expect(page.locator('figure figcaption')).toContainText('≈ amount');
  await expect(page.getByRole('status').filter({ hasText: 'values past 2^53' })).toBeVisible();
  await page.getByRole('button', { name: 'All rows', exact: true }).click();

  // copied whole, and linked to the row's chain's explorer
  const holder = await cellOf(grid, 'holder', 0);
  // the rows shown again, and the cell taken, before the copy (a copy with no cell picked does nothing)
  await expect(holder).toHaveText(/^0x[0-9a-f]{40}$/);
  await holder.click();
  await expect(holder).toBeFocused();
  await page.keyboard.press('ControlOrMeta+C');
  await expect(page.getByRole('status').filter({ hasText: /^Copied$/ })).toBeVisible();
  // the column's name, then the whole value, never the cut one the narrow column shows
  await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toMatch(/^holder\n0x[0-9a-f]{40}$/);
  const address = String(await page.evaluate('navigator.clipboard.readText()')).split('\n')[1]!;
  await holder.click({ button: 'right' });
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page
      .getByRole('menu', { name: 'Cell actions' })
      .getByRole('menuitem', { name: /^Open address in explorer/ })
      .click(),
  ]);
  await tab.waitForURL(/^https:/);
  expect(tab.url()).toMatch(new RegExp(`^https://[a-z.]+/address/${address}$`));
  await tab.close();

  // exported with every digit and byte
  const downloading = page.waitForEvent('download');
  await page.getByText('Export CSV', { exact: true }).click();
  await page.getByRole('button', { name: /^Whole result/ }).click();
  const text = await readFile((await (await downloading).path())!, 'utf8');
  expect(text.split('\n')[0]).toBe('id,holder,tx_hash,amount,delta,block_time,legs,token,price,blockchain,ip');
  expect(text).toContain(UINT256_MAX);
  expect(text).toContain(`-3${PAST_128_BITS}`);
  expect(text).toContain('0x0000000000000000000000000000000000000003');
  expect(text).toContain('3.123456789012345678');
  expect(problems).toEqual([]);
});

test('an enum fed by another query’s results keeps its source when saved, and takes a typed value', async ({ page, ownHost }) => {
  const limit = { key: 'n', type: 'number', value: '5' };
  const created = await dune('POST', '/query', {
    name: 'Chains fed',
    query_sql: "SELECT '{{chain}}' AS chain, {{n}} AS n",
    parameters: [limit, FED_ENUM],
  });
  const queryId = created.query_id as number;
  const problems = watchProblems(page);
  await page.goto(ownHost.url());
  await addDuneAccount(page);
  await openQuery(page, 'Chains fed');

  const more = page.getByRole('button', { name: 'More actions for Chains fed' });
  const dialog = page.getByRole('dialog', { name: 'Parameters of “Chains fed”' });
  const fed = dialog.getByRole('group', { name: 'Parameter chain' });
  await more.click();
  await page.getByRole('menuitem', { name: 'Parameters…' }).click();
  await expect(fed).toContainText('Options: the values of column blockchain in query #4242’s result');
  await expect(fed.getByLabel('Options')).toHaveCount(0);
  await dialog.getByRole('group', { name: 'Parameter n' }).getByLabel('Default').fill('10');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect((await dune('GET', `/query/${queryId}`)).parameters).toEqual([{ ...limit, value: '10' }, FED_ENUM]);

  // opened again: still fed, the saved default there
  await more.click();
  await page.getByRole('menuitem', { name: 'Parameters…' }).click();
  await expect(fed).toContainText('Options: the values of column blockchain in query #4242’s result');
  await expect(dialog.getByRole('group', { name: 'Parameter n' }).getByLabel('Default')).toHaveValue('10');
  await page.keyboard.press('Escape');

  // the run form shows the default saved where nothing was typed
  await expect(page.getByRole('region', { name: 'Parameters' }).getByLabel(/^n/)).toHaveValue('10');
  // run with a value typed: the app knows no list of the fed enum's values, and this one takes any
  const chain = page.getByRole('region', { name: 'Parameters' }).getByLabel(/^chain/);
  await expect(chain).toHaveValue('ethereum');
  await chain.fill('zora');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  await expect(await cellOf(page.getByRole('grid'), 'chain', 0)).toHaveText('zora');
  expect(problems).toEqual([]);
});

test('a result Dune truncated is shown as partial once the user agrees, though its status carries no metadata', async ({
  page,
  ownHost,
}) => {
  // a service that keeps only the start of a large result, behind a stand-in of its own
  const capped = await service(join(dir, 'capped'), 'A service that truncates large results', ['--result-cap-bytes', '64KB']);
  const cappedShapes = await startDuneShapes(capped.match[1]!);
  try {
    const problems = watchProblems(page);
    await page.goto(ownHost.url());
    await addDuneAccount(page, cappedShapes.baseUrl, capped.match[2]!);
    await openQuery(page, 'Demo trades');
    await runToPartialResult(page);
    expect(problems).toEqual([]);
  } finally {
    await cappedShapes.close();
    await stop(capped.child);
  }
});
