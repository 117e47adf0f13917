import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

// `node build/make-icons.ts`: the app's icons at every size the three systems ask for, drawn from
// the one source, build/icon.svg, by Chromium (the one renderer already on every build machine).
// build/icon.png (1024 px) is what electron-builder turns into the .icns and .ico; build/icons/
// holds the Linux set, one NxN.png per size. The outputs are committed; run this after changing the SVG.

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const buildDir = import.meta.dirname;
const svg = readFileSync(join(buildDir, 'icon.svg'), 'utf8');
const outDir = join(buildDir, 'icons');
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch(
  process.env.PLAYWRIGHT_BROWSERS_PATH ? {} : { executablePath: SYSTEM_CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] },
);
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const sized = svg.replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(join(outDir, `${size}x${size}.png`), png);
    if (size === 1024) writeFileSync(join(buildDir, 'icon.png'), png);
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`Icons written: build/icon.png and build/icons/{${SIZES.join(',')}}.png`);
