import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';

// Benchmark figures live in bench/RESULTS.md, written by the benchmarks themselves, so that neither
// the README nor comments carry figures that go stale. Each benchmark owns one section, headed
// `## npm run <script>`, which its next run replaces whole with what it printed, when and where.

export const RESULTS_FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

const BENCH_HEADING = '## npm run ';
const FENCE = '```';

/** The lines of `text` that are level-2 headings, skipping fenced blocks (a bench's output is one). */
function headingLines(lines: readonly string[]): number[] {
  const headings: number[] = [];
  let fenced = false;
  lines.forEach((line, index) => {
    if (line.startsWith(FENCE)) fenced = !fenced;
    else if (!fenced && line.startsWith('## ')) headings.push(index);
  });
  return headings;
}

/**
 * `text` with the section of bench `name` replaced by `section` (which starts with its heading). A
 * bench without a section yet gets one after the other benches', before the first section that is
 * no bench's (the figures kept from before, those measured while building), or at the end.
 */
export function replaceSection(text: string, name: string, section: string): string {
  const lines = text.split('\n');
  const headings = headingLines(lines);
  const heading = `${BENCH_HEADING}${name}`;
  const start = headings.find((index) => lines[index] === heading);
  const body = section.replace(/\n*$/, '\n').split('\n');
  if (start !== undefined) {
    const end = headings.find((index) => index > start) ?? lines.length;
    return [...lines.slice(0, start), ...body, ...lines.slice(end)].join('\n');
  }
  const before = headings.find((index) => !lines[index]!.startsWith(BENCH_HEADING));
  if (before === undefined) return `${text.replace(/\n*$/, '\n\n')}${body.join('\n')}`;
  return [...lines.slice(0, before), ...body, ...lines.slice(before)].join('\n');
}

/** The machine and code a run was on: what a figure depends on besides the code. */
export function machineLine(): string {
  const cores = cpus();
  const memory = `${Math.round(totalmem() / 1024 ** 3)} GB`;
  let commit = 'commit unknown';
  try {
    commit = `commit ${execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`;
  } catch {
    // not a git checkout: the figures are still worth keeping
  }
  return `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), ${memory}, ${type()} ${release()}, Node ${process.version}, ${commit}`;
}

/** The section a run writes: heading, when and where, then its lines as printed. */
export function benchSection(name: string, printed: readonly string[], when: Date, machine: string): string {
  const at = `${when.toISOString().slice(0, 10)} at ${when.toISOString().slice(11, 16)} UTC`;
  return [`${BENCH_HEADING}${name}`, '', `Run on ${at}, on ${machine}.`, '', FENCE, ...printed, FENCE, ''].join('\n');
}

export interface SectionOptions {
  /** bench/RESULTS.md unless given (tests write a file of their own). */
  file?: string;
  when?: Date;
  machine?: string;
}

/** Writes `name`'s section of the results file, whole or not at all. */
export function writeBenchSection(name: string, printed: readonly string[], options: SectionOptions = {}): void {
  const file = options.file ?? RESULTS_FILE;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark figures\n';
  const section = benchSection(name, printed, options.when ?? new Date(), options.machine ?? machineLine());
  writeFileSync(`${file}.tmp`, replaceSection(text, name, section));
  renameSync(`${file}.tmp`, file);
}

/**
 * Keeps every line the bench prints from now on (it still prints them), for `save()` to write as
 * its section once the bench has finished. A bench that fails never calls `save()`, so its last
 * good figures stay.
 */
export function recordPrinted(name: string, options: SectionOptions = {}): { save(): void } {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    printed.push(...format(...args).split('\n'));
    log(...args);
  };
  return {
    save() {
      console.log = log;
      while (printed.at(-1) === '') printed.pop();
      writeBenchSection(name, printed, options);
      log(`(figures written to ${options.file ?? RESULTS_FILE}, section "${BENCH_HEADING.slice(3)}${name}")`);
    },
  };
}
