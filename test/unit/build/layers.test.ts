import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

// The layering rule of the design, as the lint enforces it (eslint.config.ts): each fixture is
// linted as if it were a file at its path in the project, importing files that exist there (an
// import that resolves to no file is left to the type check). `npm run lint` checks the project itself.

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const configFile = join(projectRoot, 'eslint.config.ts');
const LAYER_RULES = new Set([
  'import-x/no-restricted-paths',
  'no-restricted-imports',
  'no-restricted-syntax',
  'import-x/no-nodejs-modules',
]);
const FLAGS = ['unstable_native_nodejs_ts_config'];
// Cycles are tested apart: following every import of a fixture's targets would only slow these.
const eslint = new ESLint({ cwd: projectRoot, flags: FLAGS, overrideConfig: { rules: { 'import-x/no-cycle': 'off' } } });
// What no-restricted-imports and no-restricted-paths put before the message the config gives.
const RULE_PREFIX = /^('[^']*' import is restricted from being used by a pattern|Unexpected path "[^"]*" imported in restricted zone)\. /;

/** The layer problems of each file, as `path:line message`. */
async function layerProblems(files: Record<string, string>): Promise<string[]> {
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    const [result] = await eslint.lintText(text, { filePath: join(projectRoot, path) });
    for (const m of result!.messages) {
      if (m.fatal) throw new Error(`${path}: ${m.message}`);
      if (m.ruleId !== null && LAYER_RULES.has(m.ruleId)) found.push(`${path}:${m.line} ${m.message.replace(RULE_PREFIX, '')}`);
    }
  }
  return found.sort();
}

describe('layering rules', () => {
  it('accept the imports the design allows', async () => {
    const found = await layerProblems({
      'main/contract/fixture.ts': "import { z } from 'zod';\nimport { kindOf } from '../common/dune-types/index.ts';\n",
      'main/core/fixture.ts': "import { x } from '../contract/index.ts';\nimport { p } from '../filter-language/parse.ts';\n",
      'main/service/fixture.ts': "import { p } from '../filter-language/parse.ts';\nimport { readFile } from 'node:fs';\n",
      'main/web/fixture.ts': "import { c } from '../core/index.ts';\nimport { s } from '../service/index.ts';\n",
      'main/electron/fixture.ts': "import { app } from 'electron';\nimport { c } from '../core/index.ts';\n",
      'preload/fixture.ts': "import { contextBridge } from 'electron';\nimport { CHANNEL_NAMES } from '../main/contract/names.ts';\n",
      'renderer/src/Fixture.svelte': '<script lang="ts">\nimport type { Account } from \'../../main/contract/index.ts\';\n</script>\n',
      'renderer/src/aliased.ts': "import type { Account } from '$contract/index.ts';\n",
    });
    expect(found).toEqual([]);
  });

  it('refuse electron outside the Electron host and preload', async () => {
    const found = await layerProblems({
      'main/core/fixture.ts': "import { app } from 'electron';\n",
      'main/web/fixture.ts': "const e = require('electron');\n",
      'renderer/src/fixture.ts': "const m = await import('electron');\n",
    });
    const electronOnly = "'electron' may be imported only in main/electron and preload";
    expect(found).toEqual([
      `main/core/fixture.ts:1 ${electronOnly}`,
      `main/web/fixture.ts:1 ${electronOnly}`,
      `renderer/src/fixture.ts:1 ${electronOnly}`,
    ]);
  });

  it('refuse core and service importing each other, but not the shared filter language', async () => {
    const found = await layerProblems({
      'main/core/fixture.ts': "import { s } from '../service/index.ts';\n",
      'main/service/fixture.ts': "\n\nexport { c } from '../core/index.ts';\n",
      'main/filter-language/fixture.ts': "import { c } from '../core/index.ts';\n",
    });
    expect(found).toEqual([
      'main/core/fixture.ts:1 core may not import from service',
      'main/filter-language/fixture.ts:1 filter-language may not import from core',
      'main/service/fixture.ts:3 service may not import from core',
    ]);
  });

  it('let the renderer and preload reach main only through the contract', async () => {
    const found = await layerProblems({
      'renderer/src/fixture.ts': "import { x } from '../../main/core/index.ts';\nimport { y } from '../../main/contract/index.ts';\n",
      // the contract's alias leads to its folder: past it is core still
      'renderer/src/aliased.ts': "import { y } from '$contract/index.ts';\nimport { x } from '$contract/../core/index.ts';\n",
      'preload/fixture.ts': "import { d } from '../main/core/ipc/dispatcher.ts';\nimport fs from 'node:fs';\n",
      'main/contract/fixture.ts': "import { readFile } from 'node:fs';\n",
    });
    expect(found).toEqual([
      'main/contract/fixture.ts:1 main/contract may import only zod',
      'preload/fixture.ts:1 preload may not import from core',
      'preload/fixture.ts:2 Do not import Node.js builtin module "node:fs"',
      'renderer/src/aliased.ts:2 renderer may not import from core',
      'renderer/src/fixture.ts:1 renderer may not import from core',
    ]);
  });
});

describe('the shared pure layer', () => {
  it('may be imported by every layer but preload, and imports nothing itself', async () => {
    const common = 'common/dune-types/index.ts';
    const found = await layerProblems({
      'main/common/fixture.ts': "import { x } from '../core/index.ts';\nimport { readFile } from 'node:fs';\nimport { z } from 'zod';\n",
      'main/core/fixture.ts': `import { r } from '../${common}';\n`,
      'main/service/fixture.ts': `import { r } from '../${common}';\n`,
      'main/filter-language/fixture.ts': `import { r } from '../${common}';\n`,
      'main/contract/fixture.ts': `import { r } from '../${common}';\n`,
      'renderer/src/fixture.ts': `import { r } from '../../main/${common}';\n`,
      'preload/fixture.ts': `import { r } from '../main/${common}';\n`,
    });
    expect(found).toEqual([
      'main/common/fixture.ts:1 common may not import from core',
      'main/common/fixture.ts:2 main/common is pure: it may import no package and no Node built-in',
      'main/common/fixture.ts:3 main/common is pure: it may import no package and no Node built-in',
      'preload/fixture.ts:1 preload may not import from common',
    ]);
  });
});

describe('import cycles', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('are refused', async () => {
    root = mkdtempSync(join(tmpdir(), 'cycles-'));
    writeFileSync(join(root, 'a.ts'), "import { b } from './b.ts';\nexport const a = () => b;\n");
    writeFileSync(join(root, 'b.ts'), "import { a } from './a.ts';\nexport const b = () => a;\n");
    const inTemp = new ESLint({ cwd: root, overrideConfigFile: configFile, flags: FLAGS });
    const [result] = await inTemp.lintFiles(['a.ts']);
    expect(result!.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.line)).toEqual([1]);
  });
});
