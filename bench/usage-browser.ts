// The usage page opening in Chromium through the browser host, for `npm run bench:history`: a month
// of 10,000 runs in the record of the current month, from the account menu's click to the month's
// totals shown. The window has main read the month once it is idle, as a person's window would
// long before they open the page; the month read at the opening itself is bench/usage-page.ts's. Needs a build (`npm run build`) and Chromium; without them it says so and goes on.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Page } from '@playwright/test';
import { webHostCommand } from '../build/web-host.ts';
import { median } from './timing.ts';
import { PAGE_GOAL_MS, writeUsageMonth } from './usage-page.ts';

const OPENINGS = 4;

function hostUrl(host: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    host.once('exit', (code) => reject(new Error(`the browser host exited (code ${code})`)));
    createInterface({ input: host.stdout! }).on('line', (line) => {
      const match = /running at (http\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
  });
}

/** From the menu item's click to the month's totals shown, then closed again. */
async function openUsagePage(page: Page): Promise<number> {
  await page.getByRole('button', { name: /^Account/ }).click();
  const item = page.getByRole('menuitem', { name: 'Usage and costs…' });
  await item.waitFor();
  const start = performance.now();
  await item.click();
  await page
    .getByRole('dialog', { name: /^Usage of/ })
    .getByLabel('Month’s totals')
    .getByText(/executions/)
    .waitFor({ timeout: 60_000 });
  const took = performance.now() - start;
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: /^Usage of/ }).waitFor({ state: 'detached' });
  return took;
}

export async function benchUsagePageInChromium(): Promise<void> {
  if (!existsSync('out/renderer/index.html')) {
    console.log('The usage page in Chromium: skipped, the app is not built (npm run build).');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-usage-browser-'));
  mkdirSync(join(dir, 'core'), { recursive: true });
  const now = new Date();
  writeUsageMonth(join(dir, 'core'), (now.getFullYear() - 2026) * 12 + now.getMonth());
  const command = webHostCommand(['--port', '0', '--data-dir', dir, '--no-build']);
  const host = spawn(process.execPath, command.args, { stdio: ['ignore', 'pipe', 'inherit'], env: command.env });
  try {
    const url = await hostUrl(host);
    const browser = await chromium.launch(
      existsSync('/usr/bin/chromium') && !process.env.PLAYWRIGHT_BROWSERS_PATH
        ? { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] }
        : {},
    );
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      await page.getByRole('listbox', { name: 'Queries' }).getByRole('option').first().waitFor({ timeout: 60_000 });
      const times: number[] = [];
      for (let n = 0; n < OPENINGS; n++) times.push(await openUsagePage(page));
      const [first, ...later] = times as [number, ...number[]];
      const met = (ms: number) => `goal ${PAGE_GOAL_MS} ms: ${ms <= PAGE_GOAL_MS ? 'met' : 'NOT met'}`;
      console.log(`${'In Chromium, click to totals: first opening'.padEnd(50)}${first.toFixed(0).padStart(6)} ms   ${met(first)}`);
      console.log('  (the month read in main when the window was idle, before the click)');
      console.log(
        `In Chromium, click to totals: later (median of ${later.length})     ${median(later).toFixed(0).padStart(6)} ms   ${met(median(later))}`,
      );
    } finally {
      await browser.close();
    }
  } catch (error) {
    console.log(`The usage page in Chromium: skipped (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`);
  } finally {
    host.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
