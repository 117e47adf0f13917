// `npm run crash:cache -- --rounds N [--seed S] [--rows R]`: the app's result cache killed with
// SIGKILL N times in the middle of a download of an R-row result, opened again on the same folder
// each time; exits 1 unless every round went on from the rows on disk and ended with the result
// exact.
import { parseArgs } from 'node:util';
import { crashCache } from './crash-cache.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    rows: { type: 'string', default: '1000000' },
  },
});
const [rounds, seed, rows] = [Number(values.rounds), Number(values.seed), Number(values.rows)];
if (![rounds, seed, rows].every(Number.isInteger) || rounds < 1 || rows < 1)
  throw new Error('--rounds, --seed and --rows must be whole numbers');

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const report = await crashCache({ rounds, seed, rows });
for (const [i, round] of report.rounds.entries()) {
  console.log(
    `round ${i + 1}: killed at ${round.arrived} rows arrived, went on from row ${round.resumedFrom}, ${round.exact ? 'exact' : 'NOT EXACT'}; file ${mib(round.bytesAtKill)} at the kill, ${mib(round.bytesAfterOpen)} once opened`,
  );
}
const resumed = report.rounds.filter((round) => round.resumedFrom > 0).length;
const exact = report.rounds.filter((round) => round.exact).length;
console.log(`resumed: ${resumed} of ${rounds}; exact: ${exact} of ${rounds}; ${report.seconds.toFixed(1)} s`);
console.log(`file after the last entry was cleared and the cache opened: ${mib(report.finalBytes)} (${mib(report.finalUsedBytes)} in use)`);
process.exit(resumed === rounds && exact === rounds ? 0 : 1);
