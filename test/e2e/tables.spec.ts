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
  const tablesPage = page.getByRole('main', { name: 'Tables' });
  await expect(tablesPage.getByRole('heading', { name: 'Tables', level: 1 })).toBeVisible();

  // A column name that starts with a digit: refused before anything is sent, with a fixed name offered.
  await pickFile(page, 'Daily Prices.csv', 'day,1st_price,token\n2024-01-01,2300.5,WETH\n2024-01-02,42000,"W,BTC"\n');
  const preview = tablesPage.getByRole('table', { name: 'Preview of the file' });
  await expect(preview).toContainText('1st_price');
  await expect(preview).toContainText('double');
  await expect(tablesPage.getByText('2 rows', { exact: true })).toBeVisible();
  const fileProblems = tablesPage.getByRole('alert', { name: 'Problems in the file' });
  await expect(fileProblems).toContainText(
    'Column 2 “1st_price” starts with a digit; a column name must start with a letter. Use “col_1st_price”?',
  );
  const uploadButton = tablesPage.getByRole('button', { name: 'Upload', exact: true });
  await expect(uploadButton).toBeDisabled();
  await tablesPage.getByRole('button', { name: 'Use the fixed name' }).click();
  await expect(fileProblems).toBeHidden();
  await expect(preview).toContainText('col_1st_price');

  // The name from the file is not a valid table name until the user fixes it.
  const tableName = tablesPage.getByLabel('Table name');
  await expect(tableName).toHaveValue('daily_prices');
  // the account's handle, before it has any table
  await expect(tablesPage.locator('code').filter({ hasText: 'dune.demo.dataset_daily_prices' })).toBeVisible();
  await tableName.fill('E2E Prices');
  await expect(tablesPage.getByText('“E2E Prices” cannot be a table name')).toBeVisible();
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

  // The same name again: the page says it replaces the table; the file's columns differ, so it asks.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Tables' }).click();
  await tablesPage.getByRole('button', { name: 'Upload another file' }).click();
  await dropFile(page, 'prices.csv', 'day,price,token\n2024-02-01,1,A\n2024-02-02,2,B\n2024-02-03,3,C\n');
  await expect(tablesPage.getByText('3 rows', { exact: true })).toBeVisible();
  // another file starts another table: its name comes from this file, not from the table just made
  await expect(tableName).toHaveValue('prices');
  await tableName.fill(TABLE);
  await expect(tablesPage.getByText(`A table named ${TABLE} exists`)).toBeVisible();
  const replaceButton = tablesPage.getByRole('region', { name: 'Upload a CSV file' }).getByRole('button', { name: 'Replace table' });
  const asked = page.getByRole('dialog', { name: 'Replace table' });

  // The service refuses a private table on this plan: its words are shown, the old table stays.
  await tablesPage.getByLabel('Private table').check();
  await replaceButton.click();
  await expect(asked.getByRole('list', { name: 'Column changes' })).toContainText('Removed col_1st_price double');
  await asked.getByRole('button', { name: 'Replace table' }).click();
  const failure = tablesPage.getByRole('alert').filter({ hasText: 'The file was not uploaded.' });
  await expect(failure).toContainText("private uploads need a premium plan; 'demo' is on the plus plan");
  await expect(failure).toContainText(`The table dune.demo.dataset_${TABLE} is as it was before.`);
  await failure.getByRole('button', { name: 'Back to the form' }).click();
  await expect(listed.getByRole('cell').nth(3)).toHaveText('2');
  await tablesPage.getByLabel('Private table').uncheck();
  await replaceButton.click();
  await asked.getByRole('button', { name: 'Replace table' }).click();
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

test("shows a table's columns in its row, and asks before a replacing file changes them", async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const name = 'e2e_rates';

  await page.goto(appUrl());
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Tables' }).click();
  const tablesPage = page.getByRole('main', { name: 'Tables' });
  const form = tablesPage.getByRole('region', { name: 'Upload a CSV file' });
  const result = tablesPage.getByRole('status', { name: 'Upload result' });
  await pickFile(page, 'rates.csv', 'day,rate\n2024-01-01,1.5\n2024-01-02,2.25\n');
  await tablesPage.getByLabel('Table name').fill(name);
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(result).toContainText('Uploaded 2 rows.');

  // The row counts the columns; opened, it shows each with its type.
  const list = tablesPage.getByRole('table', { name: 'Tables' });
  const row = list.getByRole('row', { name, exact: true });
  const opener = row.getByRole('button', { name: '2 columns' });
  await expect(opener).toHaveAttribute('aria-expanded', 'false');
  await opener.click();
  await expect(opener).toHaveAttribute('aria-expanded', 'true');
  const columns = list.getByRole('list', { name: `Columns of ${name}` });
  await expect(columns.getByRole('listitem')).toHaveText(['day date', 'rate double']);

  // Whole numbers now: the rate column would become bigint.
  await tablesPage.getByRole('button', { name: 'Upload another file' }).click();
  await pickFile(page, 'rates.csv', 'day,rate\n2024-02-01,3\n2024-02-02,4\n2024-02-03,5\n');
  await tablesPage.getByLabel('Table name').fill(name);
  await expect(form.getByRole('note', { name: 'Replaces a table' })).toContainText('The file’s columns differ from the table’s');
  const replaceButton = form.getByRole('button', { name: 'Replace table' });
  await replaceButton.click();
  const asked = page.getByRole('dialog', { name: 'Replace table' });
  await expect(asked.getByRole('list', { name: 'Column changes' }).getByRole('listitem')).toHaveText(['Type changed rate double → bigint']);

  // Keeping the table sends nothing: its rows and columns are as they were.
  await asked.getByRole('button', { name: 'Keep the table' }).click();
  await expect(asked).toBeHidden();
  await expect(result).toBeHidden();
  await expect(row.getByRole('cell').nth(3)).toHaveText('2');
  await expect(columns.getByRole('listitem')).toHaveText(['day date', 'rate double']);

  await replaceButton.click();
  await asked.getByRole('button', { name: 'Replace table' }).click();
  await expect(result).toContainText('Uploaded 3 rows.');
  await expect(row.getByRole('cell').nth(3)).toHaveText('3');
  await expect(columns.getByRole('listitem')).toHaveText(['day date', 'rate bigint']);

  // The same columns and types: replaced without asking.
  await tablesPage.getByRole('button', { name: 'Upload another file' }).click();
  await pickFile(page, 'rates.csv', 'day,rate\n2024-03-01,7\n');
  await tablesPage.getByLabel('Table name').fill(name);
  await expect(form.getByRole('note', { name: 'Replaces a table' })).toContainText('The file has the same columns and types.');
  await replaceButton.click();
  await expect(result).toContainText('Uploaded 1 row.');
  await expect(asked).toHaveCount(0);
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');

  // A small file goes in one request, and the service reads its types itself by the rule the preview
  // read them with: an integer past bigint and a timestamp with an offset are previewed as the table
  // stores them, and the outcome names no change beyond those shown.
  await tablesPage.getByRole('button', { name: 'Upload another file' }).click();
  await pickFile(page, 'rates.csv', 'day,rate,seen\n2024-04-01,12345678901234567890123,2024-04-01T10:00:00+02:00\n');
  await tablesPage.getByLabel('Table name').fill(name);
  await expect(tablesPage.getByRole('table', { name: 'Preview of the file' }).getByRole('columnheader')).toHaveText([
    '#',
    'day date',
    'rate int256',
    'seen timestamp',
  ]);
  await replaceButton.click();
  await expect(asked.getByRole('list', { name: 'Column changes' }).getByRole('listitem')).toHaveText([
    'Added seen timestamp',
    'Type changed rate bigint → int256',
  ]);
  await asked.getByRole('button', { name: 'Replace table' }).click();
  await expect(result).toContainText('Uploaded 1 row.');
  await expect(columns.getByRole('listitem')).toHaveText(['day date', 'rate int256', 'seen timestamp']);
  await expect(result.getByRole('list', { name: 'Column changes the service made' })).toHaveCount(0);

  // Tests after this one on the shared host meet the tables they made only.
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete table' }).getByRole('button', { name: 'Delete table' }).click();
  await expect(row).toBeHidden();

  expect(problems).toEqual([]);
});
