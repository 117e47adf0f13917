import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A small filesystem of its own, for probes that fill a disk: tmpfs where the machine lets us
// mount one (root, or a container with CAP_SYS_ADMIN), else an ext4 image on a loop device.

export interface SmallDisk {
  dir: string;
  /** How it was made: `tmpfs` or `loop`. */
  kind: string;
  /** Unmounts (lazily, if something still holds a file) and removes what was made; safe to call twice. */
  remove(): void;
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function failure(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  return (stderr || (error instanceof Error ? error.message : String(error))).replace(/\s+/g, ' ');
}

/** A mounted filesystem of `megabytes`, or why none could be made here. */
export function makeSmallDisk(megabytes: number): SmallDisk | { reason: string } {
  const folder = mkdtempSync(join(tmpdir(), 'querydesk-small-disk-'));
  const dir = join(folder, 'disk');
  const image = join(folder, 'disk.img');
  run('mkdir', [dir]);
  let mounted = false;
  const remove = () => {
    if (mounted) {
      try {
        run('umount', [dir]);
      } catch {
        // a process that still holds a file: detached now, gone when it lets go
        run('umount', ['-l', dir]);
      }
      mounted = false;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const reasons: string[] = [];
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
    mounted = true;
    return { dir, kind: 'tmpfs', remove };
  } catch (error) {
    reasons.push(`tmpfs: ${failure(error)}`);
  }
  try {
    run('truncate', ['-s', `${megabytes}M`, image]);
    run('mkfs.ext4', ['-q', '-F', image]);
    run('mount', ['-o', 'loop', image, dir]);
    mounted = true;
    return { dir, kind: 'loop', remove };
  } catch (error) {
    reasons.push(`loop device: ${failure(error)}`);
  }
  remove();
  return { reason: `no small filesystem can be mounted here (${reasons.join('; ')})` };
}
