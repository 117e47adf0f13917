import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README is the front door: short, with the two commands a newcomer runs and a map naming
// every folder. The rest lives in docs/ and bench/RESULTS.md, linked from it.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The folders the README's code map names, as paths from the root (`main/core/cache`). */
function mapFolders(text: string): Set<string> {
  const map = text.slice(text.indexOf('## A map of the code'));
  const block = map.slice(map.indexOf('```') + 3, map.indexOf('```', map.indexOf('```') + 3));
  const named = new Set<string>();
  let parent = '';
  for (const line of block.split('\n')) {
    const entry = /^(\s*)(\S+\/)/.exec(line);
    if (!entry) continue;
    const [, indent, folders] = entry;
    const paths = folders!.split(',').filter(Boolean);
    if (indent === '') {
      parent = paths[0]!;
      paths.forEach((path) => named.add(path.replace(/\/$/, '')));
    } else {
      paths.forEach((path) => named.add(`${parent}${path}`.replace(/\/$/, '')));
    }
  }
  return named;
}

function subfolders(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${folder}/${entry.name}`);
}

/** A heading's anchor as GitHub makes it. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const documents = [
  'README.md',
  'bench/RESULTS.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the README', () => {
  it('stays under 10 kB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(10 * 1024);
  });

  it('gives the two commands, and what npm start does without Electron', () => {
    expect(readme).toContain('```sh\nnpm ci && npm start\n```');
    expect(readme).toContain('```sh\nnpm ci && npm test\n```');
    expect(readme).toContain('it says so in one line and starts the browser host instead');
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.start).toBeDefined();
    expect(scripts.test).toBeDefined();
    const named = [...readme.matchAll(/`npm run ([\w:]+)/g)].map((match) => match[1]!);
    expect(named.filter((script) => !(script in scripts))).toEqual([]);
  });

  it('names every folder of main, main/core, main/service, main/common and renderer/src in its code map', () => {
    const named = mapFolders(readme);
    const folders = ['main', 'main/core', 'main/service', 'main/common', 'renderer/src'].flatMap(subfolders);
    expect(folders.length).toBeGreaterThan(30);
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
    expect([...named].filter((folder) => !existsSync(join(root, folder)))).toEqual([]);
  });

  it.each(documents)('%s links only to files and headings that exist', (document) => {
    const text = readFileSync(join(root, document), 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [path, hash] = target!.split('#');
      const file = path ? resolve(dirname(join(root, document)), path) : join(root, document);
      if (!existsSync(file)) {
        broken.push(`${target}: no ${relative(root, file)}`);
        continue;
      }
      if (hash === undefined || statSync(file).isDirectory()) continue;
      const headings = [...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!));
      if (!headings.includes(hash)) broken.push(`${target}: no heading #${hash} in ${relative(root, file)}`);
    }
    expect(broken).toEqual([]);
  });
});
