import { expect, test, type Page } from '@playwright/test';
import { appUrl, cellOf, executionState } from './helpers.ts';

// A person uploads a CSV file as a table, fixes a column name the service would refuse, queries the
// new table, replaces it with a new file, and deletes it: through the browser host and the real service.

const TABLE = 'e2e_prices';

async function pickFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByLabel('Choose a CSV file…').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
}

/** As a file dragged from the desktop and dropped on the upload area. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  // Runs in the page, where DataTransfer and File exist (this file is checked with Node's types only).
  const dataTransfer = await page.evaluateHandle(
    `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: 'text/csv' })); return t; })()`,
  );
  await page.getByRole('region', { name: 'Upload area' }).dispatchEvent('drop', { dataTransfer });
}

test('uploads a CSV file, queries it, replaces it and deletes it', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto(appUrl());
  await expect(page.getByText('Local', { exact: true })).toBeVisible();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Tables' }).click();
  const tablesPage = page.getByRole('region', { name: 'Tables', exact: true });
  await expect(tablesPage.getByRole('heading', { name: 'Tables', level: 1 })).toBeVisible();

  // A column name that starts with a digit: refused before anything is sent, with a fixed name offered.
  await pickFile(page, 'Daily Prices.csv', 'day,1st_price,token\n2024-01-01,2300.5,WETH\n2024-01-02,42000,"W,BTC"\n');
  const preview = tablesPage.getByRole('table', { name: 'Preview of the file' });
  await expect(preview).toContainText('1st_price');
  await expect(preview).toContainText('double');
  await expect(tablesPage.getByText('2 rows', { exact: true })).toBeVisible();
  const fileProblems = tablesPage.getByRole('alert', { name: 'Problems in the file' });
  await expect(fileProblems).toContainText('Column 2 "1st_price" starts with a digit; a column name must start with a letter. Use "col_1st_price"?');
  const uploadButton = tablesPage.getByRole('button', { name: 'Upload', exact: true });
  await expect(uploadButton).toBeDisabled();
  await tablesPage.getByRole('button', { name: 'Use the fixed name' }).click();
  await expect(fileProblems).toBeHidden();
  await expect(preview).toContainText('col_1st_price');

  // The name from the file is not a valid table name until the user fixes it.
  const tableName = tablesPage.getByLabel('Table name');
  await expect(tableName).toHaveValue('daily_prices');
  await tableName.fill('E2E Prices');
  await expect(tablesPage.getByText('"E2E Prices" cannot be a table name')).toBeVisible();
  await expect(uploadButton).toBeDisabled();
  await tableName.fill(TABLE);
  await uploadButton.click();

  const result = tablesPage.getByRole('status', { name: 'Upload result' });
  await expect(result).toContainText(`Uploaded 2 rows. Query it as dune.demo.dataset_${TABLE}`);
  const listed = tablesPage.getByRole('table', { name: 'Tables' }).getByRole('row', { name: TABLE });
  await expect(listed).toContainText(`dune.demo.dataset_${TABLE}`);

  // A new query on the table, run from the app.
  await result.getByRole('button', { name: 'New query on this table' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Table ${TABLE}` })).toBeVisible();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const grid = page.getByRole('grid');
  await expect(await cellOf(grid, 'token', 1)).toHaveText('W,BTC');
  await expect(await cellOf(grid, 'col_1st_price', 0)).toHaveText('2300.5');

  // The same name again: the page says it replaces the table, and waits for the user to agree.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Tables' }).click();
  await tablesPage.getByRole('button', { name: 'Upload another file' }).click();
  await dropFile(page, 'prices.csv', 'day,price,token\n2024-02-01,1,A\n2024-02-02,2,B\n2024-02-03,3,C\n');
  await expect(tablesPage.getByText('3 rows', { exact: true })).toBeVisible();
  await tableName.fill(TABLE);
  await expect(tablesPage.getByText(`A table named ${TABLE} exists`)).toBeVisible();
  await expect(uploadButton).toBeDisabled();
  await tablesPage.getByLabel('Replace the existing table').check();

  // The service refuses a private table on this plan: its words are shown, the old table stays.
  await tablesPage.getByLabel('Private table').check();
  await uploadButton.click();
  const failure = tablesPage.getByRole('alert').filter({ hasText: 'The upload failed.' });
  await expect(failure).toContainText("private uploads need a premium plan; 'demo' is on the plus plan");
  await expect(failure).toContainText(`The table dune.demo.dataset_${TABLE} is as it was before.`);
  await failure.getByRole('button', { name: 'Back to the form' }).click();
  await expect(listed.getByRole('cell').nth(3)).toHaveText('2');
  await tablesPage.getByLabel('Private table').uncheck();
  await uploadButton.click();
  await expect(result).toContainText(`Uploaded 3 rows. Query it as dune.demo.dataset_${TABLE}`);
  await expect(listed.getByRole('cell').nth(3)).toHaveText('3');

  // Deleting asks first.
  await listed.getByRole('button', { name: `Delete ${TABLE}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete table' });
  await expect(confirm).toContainText(`dune.demo.dataset_${TABLE}`);
  await confirm.getByRole('button', { name: 'Delete table' }).click();
  await expect(confirm).toBeHidden();
  await expect(listed).toBeHidden();
  // the upload's outcome no longer offers a query on the table that is gone
  await expect(tablesPage.getByRole('button', { name: 'New query on this table' })).toHaveCount(0);

  expect(problems).toEqual([]);
});
