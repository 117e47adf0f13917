import { expect, type Locator, type Page } from '@playwright/test';
import { LOADING } from '../../renderer/src/results/grid/row-placeholder.ts';

export function appUrl(): string {
  const url = process.env.QUERYDESK_URL;
  if (!url) throw new Error('QUERYDESK_URL is not set: the global setup did not start the browser host.');
  return url;
}

/**
 * `npm run test:e2e` runs inside a throwaway Secret Service (build/with-secret-service.sh says so
 * with QUERYDESK_SECRET_SERVICE): only then may the app under test use a keychain. Anywhere else the
 * tests never touch the keychain of the person running them.
 */
export const HAS_TEST_KEYCHAIN = process.env.QUERYDESK_SECRET_SERVICE === '1';

/** The browser host that finds no keychain. */
export function noKeychainUrl(): string {
  const url = process.env.QUERYDESK_NO_KEYCHAIN_URL;
  if (!url) throw new Error('The global setup did not start the browser host without a keychain.');
  return url;
}

/** The second embedded service the global setup started, and its demo account's key. */
export function otherService(): { url: string; key: string } {
  const url = process.env.QUERYDESK_OTHER_SERVICE_URL;
  const key = process.env.QUERYDESK_OTHER_SERVICE_KEY;
  if (!url || !key) throw new Error('The global setup did not start the second service.');
  return { url, key };
}

/**
 * Wheels the grid as a mouse would, once it knows how many rows it has: a wheel before that moves
 * within the rows loaded so far and never reaches the end.
 */
export async function scrollGrid(page: Page, grid: Locator, pixels: number): Promise<void> {
  await expect(grid).not.toHaveAttribute('aria-rowcount', /^(-1|1)?$/);
  await grid.getByRole('gridcell').first().hover();
  await page.mouse.wheel(0, pixels);
}

/** The grid cell of one column (found by its header, as a person reads it) in one row. */
export async function cellOf(grid: Locator, column: string, rowIndex: number): Promise<Locator> {
  const colId = await grid.getByRole('columnheader', { name: new RegExp(`^${column}\\b`) }).getAttribute('col-id');
  return grid.locator(`[role="row"][row-index="${rowIndex}"] [role="gridcell"][col-id="${colId}"]`);
}

/**
 * The text of a cell once its row has come: a row on its way shows a placeholder in every cell, and
 * a test that reads it then reads no value at all.
 */
export async function loadedCellText(grid: Locator, column: string, rowIndex: number): Promise<string> {
  const cell = await cellOf(grid, column, rowIndex);
  await expect(cell).toBeAttached();
  await expect(cell).not.toHaveText(LOADING);
  return (await cell.textContent()) ?? '';
}

/** Opens a query from the list by its name, through the filter box. */
export async function openQuery(page: Page, name: string): Promise<void> {
  const queries = page.getByRole('listbox', { name: 'Queries' });
  await expect(queries.getByRole('option').first()).toBeVisible();
  await page.getByRole('searchbox', { name: 'Filter queries by name' }).fill(name);
  await queries.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/**
 * Runs the open Demo trades on a service that keeps only the start of a large result: the app says
 * the result is partial, and shows its rows once the user agrees.
 */
export async function runToPartialResult(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed with a partial result', { timeout: 45_000 });
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result).toContainText('The service stopped this result before its last row.');
  await result.getByRole('button', { name: 'Show the partial result' }).click();
  await expect(await cellOf(page.getByRole('grid'), 'trade_id', 0)).toHaveText('1');
  await expect(page.getByLabel('Result summary')).toContainText('partial result');
}

/** Replaces the whole text of a SQL editor, as a paste would. */
export async function replaceSql(page: Page, editor: Locator, sql: string): Promise<void> {
  // on its first line, as a person does: a short window may show little more of the editor
  await editor.click({ position: { x: 8, y: 8 } });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(sql);
}

export function executionState(page: Page): Locator {
  return page.getByRole('status', { name: 'Execution state' });
}

/** Errors the page logs or throws, such as AG Grid's about a module that is not registered. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return problems;
}

/** Opens the app at `url`, writes `sql` in a new scratch tab (Ctrl/Cmd+N) and runs it to the end. */
export async function runScratch(page: Page, url: string, sql: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+N');
  await expect(page.getByRole('textbox', { name: 'SQL of SQL 1' })).toBeFocused();
  await page.keyboard.insertText(sql);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(executionState(page)).toHaveText('Completed');
}

/** Opens the app at `url`, opens the query `name` from the list and runs it to the end. */
export async function runQuery(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  await openQuery(page, name);
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
}

/** Opens Compare runs from Recent runs, once the query has two finished runs. */
export async function openCompareRuns(page: Page): Promise<Locator> {
  // the list is read when it opens: opened again until it has both runs finished
  const recent = page.getByRole('button', { name: /Recent runs/ });
  const compare = page.getByRole('button', { name: 'Compare two runs…' });
  await expect(async () => {
    if ((await recent.getAttribute('aria-expanded')) === 'true') await recent.click();
    await recent.click();
    await expect(compare).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await compare.click();
  return page.getByRole('dialog', { name: 'Compare runs' });
}

/**
 * Adds an account on `url` with `key` through the Accounts dialog and makes it the one in use;
 * `sessionOnly`: where no keychain is reachable, the key is kept for the session only.
 */
export async function addAccount(page: Page, name: string, url: string, key: string, sessionOnly = false): Promise<void> {
  await page.getByRole('button', { name: /^Account/ }).click();
  await page.getByRole('menuitem', { name: 'Manage accounts…' }).click();
  const accounts = page.getByRole('dialog', { name: 'Accounts' });
  await accounts.getByRole('button', { name: 'Add account…' }).click();
  const form = page.getByRole('dialog', { name: 'Add an account' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Service address').fill(url);
  await form.getByLabel('API key').fill(key);
  await form.getByRole('button', { name: 'Add account', exact: true }).click();
  if (sessionOnly) await page.getByRole('button', { name: 'Keep this key for this session only' }).click();
  await accounts.getByRole('listitem', { name }).getByRole('button', { name: 'Use' }).click();
  await page.keyboard.press('Escape');
}

/** Opens the app where no keychain is reachable and uses an account whose key is kept for the session (nothing outlives the test). */
export async function useSessionAccount(page: Page, name: string, url: string, key: string): Promise<void> {
  await page.goto(noKeychainUrl());
  await addAccount(page, name, url, key, true);
}

/**
 * Passes the page's link to its host through, the host's answers to `channel` given to `change`
 * first: held back, as a slow start would, or made a failure main can give but not on demand.
 */
export async function answersOf(page: Page, channel: string, change: (result: unknown) => Promise<unknown>): Promise<void> {
  await page.routeWebSocket(/./, (socket) => {
    const host = socket.connectToServer();
    const asked = new Set<number>();
    socket.onMessage((message) => {
      const invoke = JSON.parse(String(message)) as { id?: number; channel?: string };
      if (invoke.channel === channel && invoke.id !== undefined) asked.add(invoke.id);
      host.send(message);
    });
    host.onMessage(async (message) => {
      const answer = JSON.parse(String(message)) as { type: string; id?: number; result?: unknown };
      if (answer.type !== 'result' || answer.id === undefined || !asked.has(answer.id)) return socket.send(message);
      socket.send(JSON.stringify({ ...answer, result: await change(answer.result) }));
    });
  });
}

/** Holds back the host's answers to `channel` until the function this answers is called. */
export async function holdAnswers(page: Page, channel: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await answersOf(page, channel, async (answer) => (await held, answer));
  return release;
}
