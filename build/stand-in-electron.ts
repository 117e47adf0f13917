import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The Electron binary cannot be downloaded on the build machines, so `npm run pack` gives
// electron-builder a stand-in: a script that says what it is, carrying Electron's fuse wire
// (sentinel, version 1, eight fuses at Electron's defaults) so the packaging flips real fuses
// that the package check then reads back.

const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** RunAsNode, CookieEncryption, NodeOptions, NodeCliInspect, AsarIntegrity, OnlyLoadAppFromAsar, V8Snapshot, FileProtocolPrivileges. */
const ELECTRON_DEFAULT_FUSES = '10110001';

export function writeStandInElectron(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'electron');
  const script = '#!/bin/sh\necho "This Querydesk folder was packed with a stand-in for the Electron binary; it cannot run." >&2\nexit 1\n';
  const wire = Buffer.concat([
    Buffer.from(`# ${FUSE_SENTINEL}`),
    Buffer.from([1, ELECTRON_DEFAULT_FUSES.length]),
    Buffer.from(ELECTRON_DEFAULT_FUSES),
    Buffer.from('\n'),
  ]);
  writeFileSync(path, Buffer.concat([Buffer.from(script), wire]));
  chmodSync(path, 0o755);
  writeFileSync(join(dir, 'version'), 'stand-in');
  return path;
}
