import { realpathSync } from 'node:fs';
import { parse } from 'node:path';

/**
 * A function that replaces every one of `hiddenPaths` (host folders) in a text with `<hidden>`.
 * Each folder also as the file system resolves it (`/var/…` is `/private/var/…` on macOS), as
 * DuckDB may name it so; longest first, so that a folder inside another is hidden whole; only
 * where a path starts, so that a folder's name inside another (`/tmp` in `<data folder>/tmp/…`,
 * or in `<hidden>/tmp/…` when hidden twice) is not hidden again.
 */
export function hostPathsHider(hiddenPaths: string[]): (text: string) => string {
  const named = hiddenPaths.flatMap((path) => [path, resolvedPath(path)]);
  const folders = [...new Set(named)].filter((path) => path !== parse(path).root).sort((a, b) => b.length - a.length);
  const escaped = folders.map((path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (folders.length === 0) return (text) => text;
  const hidden = new RegExp(`(?<![\\w.\\-/\\\\>])(?:${escaped.join('|')})`, 'g');
  return (text) => text.replace(hidden, '<hidden>');
}

function resolvedPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
