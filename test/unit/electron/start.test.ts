import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../../build/start.ts';

let pkg: string;

beforeEach(() => {
  pkg = mkdtempSync(join(tmpdir(), 'querydesk-electron-'));
});

afterEach(() => rmSync(pkg, { recursive: true, force: true }));

describe('findElectronBinary', () => {
  it('finds nothing in a package that never downloaded its binary', () => {
    expect(findElectronBinary(pkg)).toBeNull();
  });

  it('finds nothing when path.txt names a binary that is not on disk', () => {
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    expect(findElectronBinary(pkg)).toBeNull();
    mkdirSync(join(pkg, 'dist', 'electron'), { recursive: true });
    expect(findElectronBinary(pkg), 'a folder is not a binary').toBeNull();
  });

  it('finds the binary path.txt names under dist/', () => {
    writeFileSync(join(pkg, 'path.txt'), 'Electron.app/Contents/MacOS/Electron\n');
    mkdirSync(join(pkg, 'dist', 'Electron.app', 'Contents', 'MacOS'), { recursive: true });
    writeFileSync(join(pkg, 'dist', 'Electron.app', 'Contents', 'MacOS', 'Electron'), '');
    expect(findElectronBinary(pkg)).toBe(join(pkg, 'dist', 'Electron.app', 'Contents', 'MacOS', 'Electron'));
  });

  it('looks in ELECTRON_OVERRIDE_DIST_PATH when it is set, as the electron package does', () => {
    const override = join(pkg, 'custom');
    mkdirSync(override);
    expect(findElectronBinary(pkg, override)).toBeNull();
    writeFileSync(join(override, 'electron'), '');
    expect(findElectronBinary(pkg, override)).toBe(join(override, 'electron'));
  });
});
