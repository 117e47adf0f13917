import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Where Playwright's own Chromium is not installed (as on the build machines), use the system one.
const systemChromium = '/usr/bin/chromium';
const useSystemChromium = !process.env.PLAYWRIGHT_BROWSERS_PATH && existsSync(systemChromium);

export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  reporter: [['list']],
  use: {
    // The app formats counts with the browser's locale; the assertions are written in en-US.
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: useSystemChromium
      ? {
          executablePath: systemChromium,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        }
      : {},
  },
});
