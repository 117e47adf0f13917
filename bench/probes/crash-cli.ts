// `npm run crash:service -- --rounds N [--seed S]`: the embedded service killed with SIGKILL N
// times each during an execution, an upload, an insert and the making of the sample tables,
// restarted on the same folder each time; exits 1 when committed data changed, interrupted work
// did not read as failed, files were left over, or a file of the folder holds the API key as it is.
import { parseArgs } from 'node:util';
import { crashService } from './crash-run.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' } } });
const rounds = Number(values.rounds);
const seed = Number(values.seed);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(seed)) throw new Error('--rounds and --seed must be whole numbers');

const report = await crashService({ rounds, seed, kinds: ['execution', 'upload', 'insert', 'sample'] });
console.log(`rounds: ${report.rounds} (execution, upload, insert, sample each); kills: ${report.kills}; ${report.seconds.toFixed(1)} s`);
console.log(`data mismatches: ${report.mismatches.length}; leftovers found: ${report.leftovers.length}`);
for (const line of [...report.mismatches, ...report.leftovers]) console.log(`  ${line}`);
process.exit(report.mismatches.length + report.leftovers.length > 0 ? 1 : 0);
