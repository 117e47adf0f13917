// `npm run diskfull:service -- [--megabytes 64]`: the embedded service on a small filesystem of
// its own (tmpfs, else a loop device; skipped with the reason where neither can be mounted), filled
// by a result, then by another file under a result being written, then kept full while uploads,
// inserts, new queries, new tables and executions are sent, then freed; exits 1 when a full disk
// was not said so, left files behind or outlasted its space.
import { parseArgs } from 'node:util';
import { diskFullService, type Answer } from './diskfull-run.ts';

const { values } = parseArgs({ options: { megabytes: { type: 'string', default: '64' } } });
const megabytes = Number(values.megabytes);
if (!Number.isInteger(megabytes) || megabytes < 16)
  throw new Error(`--megabytes must be a whole number of 16 or more, got '${values.megabytes}'`);

const MB = 1024 * 1024;
const began = performance.now();
const report = await diskFullService({ megabytes });
if (report.skipped) {
  console.log(`skipped: ${report.skipped}`);
  process.exit(0);
}
const show = (answers: Answer[]) => answers.map((a) => `  ${a.request}: ${a.status}${a.error ? ` (${a.error})` : ''}`).join('\n');
console.log(`disk: ${report.disk}; ${((performance.now() - began) / 1000).toFixed(1)} s`);
console.log(`the result larger than the disk: ${report.resultError}`);
console.log(`free before it: ${(report.freeBefore / MB).toFixed(1)} MB, after it failed: ${(report.freeAfter / MB).toFixed(1)} MB`);
const filled = report.filledWhileWriting!;
console.log(
  `a result written as the disk filled: ${filled.stateWhileFull} while full, then ${filled.ended} ${filled.recordedMillis.toFixed(0)} ms after space was freed (${filled.error})`,
);
console.log(`while the disk was full:\n${show(report.whileFull)}`);
console.log(`once space was freed (first round):\n${show(report.afterFreed)}`);
console.log(`recovered: after ${report.roundsToRecover} round(s), ${report.recoverMillis.toFixed(0)} ms from freeing space`);
console.log(`leftovers found: ${report.leftovers.length}; problems: ${report.problems.length}`);
for (const line of [...report.leftovers, ...report.problems]) console.log(`  ${line}`);
process.exit(report.leftovers.length + report.problems.length > 0 ? 1 : 0);
