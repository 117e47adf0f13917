import { expect } from '@playwright/test';
import { test } from './own-host.ts';

// The list's filter finds queries by a word of their SQL, from the workspace on disk, and shows
// the line it is on.

test('finds a query by its SQL and shows the matching line', async ({ page, ownHost }) => {
  await page.goto(ownHost.url());
  const queries = page.getByRole('listbox', { name: 'Queries' });
  await expect(queries.getByRole('option', { name: /Slow checksum/ })).toBeVisible();
  const filter = page.getByRole('searchbox', { name: 'Filter queries by name, tag or SQL' });
  await filter.fill('3000000000');
  await expect(queries.getByRole('option')).toHaveCount(1);
  const found = queries.getByRole('option', { name: /Slow checksum/ });
  await expect(found).toContainText('FROM range(3000000000) AS t(i)');
  await expect(found.locator('mark')).toHaveText('3000000000');
  // a tag finds it too, without a line
  await filter.fill('slow');
  await expect(found).toBeVisible();
  await expect(found.locator('mark')).toHaveCount(0);
  // after a reload the SQL is searched from disk at once
  await page.reload();
  await page.getByRole('searchbox', { name: 'Filter queries by name, tag or SQL' }).fill('hash(i)');
  await expect(page.getByRole('listbox', { name: 'Queries' }).getByRole('option', { name: /Slow checksum/ })).toContainText(
    'sum(hash(i) % 1000)',
  );
});
