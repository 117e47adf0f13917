import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers } from '../../build/check-layers.ts';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('layering check', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function tree(files: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), 'layers-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it('finds no violation in the project itself', () => {
    root = mkdtempSync(join(tmpdir(), 'layers-'));
    expect(checkLayers(projectRoot)).toEqual([]);
  });

  it('accepts the imports the design allows', () => {
    tree({
      'main/contract/a.ts': "import { z } from 'zod';\n",
      'main/core/a.ts': "import { x } from '../contract/a.ts';\nimport { p } from '../filter-language/parse.ts';\n",
      'main/service/a.ts': "import { p } from '../filter-language/parse.ts';\nimport { readFile } from 'node:fs';\n",
      'main/web/a.ts': "import { c } from '../core/a.ts';\nimport { s } from '../service/a.ts';\n",
      'main/electron/a.ts': "import { app } from 'electron';\nimport { c } from '../core/a.ts';\n",
      'preload/index.ts': "import { contextBridge } from 'electron';\nimport { CHANNEL_NAMES } from '../main/contract/names.ts';\n",
      'renderer/src/App.svelte': "<script lang=\"ts\">\nimport type { Account } from '../../main/contract/index.ts';\n</script>\n",
    });
    expect(checkLayers(root)).toEqual([]);
  });

  it('refuses electron outside the Electron host and preload', () => {
    tree({
      'main/core/a.ts': "import { app } from 'electron';\n",
      'main/web/b.ts': "const e = require('electron');\n",
      'renderer/src/c.ts': "const m = await import('electron');\n",
    });
    const rules = checkLayers(root).map((v) => `${v.file}:${v.line}`);
    expect(rules.sort()).toEqual(['main/core/a.ts:1', 'main/web/b.ts:1', 'renderer/src/c.ts:1']);
  });

  it('refuses core and service importing each other, but not the shared filter language', () => {
    tree({
      'main/core/a.ts': "import { s } from '../service/index.ts';\n",
      'main/service/b.ts': "\n\nexport { c } from '../core/index.ts';\n",
      'main/filter-language/parse.ts': "import { c } from '../core/index.ts';\n",
    });
    const found = checkLayers(root).map((v) => [v.file, v.line, v.rule]);
    expect(found).toContainEqual(['main/core/a.ts', 1, 'core may not import from service']);
    expect(found).toContainEqual(['main/service/b.ts', 3, 'service may not import from core']);
    expect(found).toContainEqual(['main/filter-language/parse.ts', 1, 'filter-language may not import from core']);
    expect(found).toHaveLength(3);
  });

  it('lets the renderer and preload reach main only through the contract', () => {
    tree({
      'renderer/src/a.ts': "import { x } from '../../main/core/index.ts';\nimport { y } from '../../main/contract/index.ts';\n",
      'preload/index.ts': "import { d } from '../main/core/ipc/dispatcher.ts';\nimport fs from 'node:fs';\n",
      'main/contract/a.ts': "import { readFile } from 'node:fs';\n",
    });
    const found = checkLayers(root).map((v) => `${v.file}:${v.line} ${v.rule}`);
    expect(found.sort()).toEqual([
      'main/contract/a.ts:1 main/contract may import only zod',
      'preload/index.ts:1 preload may not import from core',
      'preload/index.ts:2 preload runs sandboxed and may not import Node built-ins',
      'renderer/src/a.ts:1 renderer may not import from core',
    ]);
  });
});

describe('the shared pure layer', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('may be imported by every layer but preload, and imports nothing itself', () => {
    root = mkdtempSync(join(tmpdir(), 'layers-'));
    const files: Record<string, string> = {
      'main/common/rule.ts': "import { x } from '../core/a.ts';\nimport { readFile } from 'node:fs';\nimport { z } from 'zod';\n",
      'main/core/a.ts': "import { r } from '../common/rule.ts';\n",
      'main/service/a.ts': "import { r } from '../common/rule.ts';\n",
      'main/filter-language/a.ts': "import { r } from '../common/rule.ts';\n",
      'main/contract/a.ts': "import { r } from '../common/rule.ts';\n",
      'renderer/src/a.ts': "import { r } from '../../main/common/rule.ts';\n",
      'preload/index.ts': "import { r } from '../main/common/rule.ts';\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const found = checkLayers(root).map((v) => `${v.file}:${v.line} ${v.rule}`);
    expect(found.sort()).toEqual([
      'main/common/rule.ts:1 common may not import from core',
      'main/common/rule.ts:2 main/common is pure: it may import no package and no Node built-in',
      'main/common/rule.ts:3 main/common is pure: it may import no package and no Node built-in',
      'preload/index.ts:1 preload may not import from common',
    ]);
  });
});
