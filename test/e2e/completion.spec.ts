import { expect } from '@playwright/test';
import { executionState, openQuery, replaceSql } from './helpers.ts';
import { test } from './own-host.ts';

// The sidebar lists the account's tables with their columns, and the editor completes table
// names (the account's, and Dune's sample tables), their columns, and the columns of the result shown.

test('lists tables with their columns, and completes tables, columns and result columns', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  // a table, uploaded as a person does it
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Tables' }).click();
  await page
    .getByLabel('Choose a CSV file…')
    .setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('day,price_usd\n2024-01-01,2300.5\n') });
  const tablesPage = page.getByRole('main', { name: 'Tables' });
  await tablesPage.getByLabel('Table name').fill('prices');
  await tablesPage.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(tablesPage.getByRole('status', { name: 'Upload result' })).toContainText('Uploaded 1 row');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Queries' }).click();

  const browser = page.getByRole('region', { name: 'Tables', exact: true }).filter({ has: page.getByRole('button', { name: /^Tables/ }) });
  await browser.getByRole('button', { name: /^Tables/ }).click();
  await browser.getByText('dune.demo.dataset_prices').click();
  await expect(browser.getByRole('list', { name: 'Columns of dune.demo.dataset_prices' })).toContainText('price_usd');

  await openQuery(page, 'Demo trades');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(executionState(page)).toHaveText('Completed', { timeout: 45_000 });
  const editor = page.getByRole('textbox', { name: 'SQL of Demo trades' });
  await replaceSql(page, editor, 'select ');
  // a column of the result below
  await page.keyboard.type('amount_u');
  await expect(page.getByRole('option', { name: /amount_usd/ })).toBeVisible();
  // the editor takes Enter for a choice only once the list has been up a moment, as for a person
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  await expect(editor).toHaveText('select amount_usd');
  // a table, by its dotted name, then its columns
  await page.keyboard.type(' from dune.demo.dataset_pr');
  await expect(page.getByRole('option', { name: /dataset_prices/ })).toBeVisible();
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  await expect(editor).toHaveText('select amount_usd from dune.demo.dataset_prices');
  await page.keyboard.type(' where dune.demo.dataset_prices.pri');
  await expect(page.getByRole('option', { name: /price_usd/ })).toBeVisible();

  // Dune's own tables, which the embedded service keeps a sample of, and their columns
  await replaceSql(page, editor, 'select * from ethereum.tra');
  await expect(page.getByRole('option', { name: /transactions/ })).toBeVisible();
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  await expect(editor).toHaveText('select * from ethereum.transactions');
  await page.keyboard.type(' where ethereum.transactions.block_ti');
  await expect(page.getByRole('option', { name: /block_time/ })).toContainText('timestamp(3) with time zone');
});
