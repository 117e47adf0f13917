import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isServiceName, SERVICE_NAME_RULE } from '../common/service-name.ts';
import { PLANS, type Plan } from './accounts/account-store.ts';
import { resolveLimits, type PerPlan } from './executions/plan-limits.ts';
import { COMPRESSION_MODES } from './http/compression.ts';
import type { ServiceOptions } from './index.ts';

export class UsageError extends Error {}

export const USAGE = `usage: npm run service -- [--host 127.0.0.1] [--port N] [--data-dir DIR] [--accounts FILE]
  [--service-name DUNE] [--max-page-rows 30000] [--retention 90d] [--execution-slots 3]
  [--waiting-executions 10] [--running-executions N] [--rate-limit off|on] [--compression auto|always|never] [--body-idle-timeout 10s]
  per plan, one value or e.g. free=256MB,premium=1GB:
  [--result-cap-bytes SIZE] [--execution-time-limit DURATION] [--execution-memory SIZE] [--execution-spill SIZE]
  for all executions together: [--service-execution-memory SIZE] [--service-execution-spill SIZE]
  [--demo-api-key KEY] (the service keeps only hashes of keys: the demo key printed at start is a
  fresh one unless --demo-api-key gives the one to keep)`;

type Apply = (options: ServiceOptions, value: string, flag: string) => void;

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got '${value}'`);
  }
  return n;
}

const SIZE_UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `8GB`, `512KB`, `100B`: a positive whole number and a unit. */
function parseSize(flag: string, value: string): number {
  const match = /^(\d+)(B|KB|MB|GB)$/i.exec(value);
  const bytes = match ? Number(match[1]) * SIZE_UNITS[match[2]!.toUpperCase()]! : 0;
  if (!(bytes > 0)) throw new UsageError(`${flag} must be a size such as 512KB or 8GB (units B, KB, MB, GB), got '${value}'`);
  return bytes;
}

/** `90d`, `12h`, `30m`, `45s`: a positive whole number and a unit. */
function parseDuration(flag: string, value: string): number {
  const match = /^(\d+)([smhd])$/.exec(value);
  const millis = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : 0;
  if (!(millis > 0)) throw new UsageError(`${flag} must be a duration such as 90d, 12h, 30m or 45s, got '${value}'`);
  return millis;
}

/** `256MB` for every plan, or `free=256MB,plus=512MB` for some of them. */
function perPlan(flag: string, value: string, parse: (flag: string, value: string) => number): PerPlan<number> {
  if (!value.includes('=')) return parse(flag, value);
  const values: Partial<Record<Plan, number>> = {};
  for (const part of value.split(',')) {
    const [name = '', given = ''] = part.split('=');
    const plan = PLANS.find((p) => p === name);
    if (!plan) throw new UsageError(`${flag}: '${name}' is not a plan (${PLANS.join(', ')}), in '${value}'`);
    values[plan] = parse(`${flag} ${plan}`, given);
  }
  return values;
}

function readAccountsFile(flag: string, path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read '${path}': ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag}: '${path}' is not valid JSON: ${(error as Error).message}`);
  }
}

const FLAGS: Record<string, Apply> = {
  '--host': (o, v) => (o.host = v),
  '--port': (o, v, f) => (o.port = wholeNumber(f, v, 0, 65535)),
  '--data-dir': (o, v) => (o.dataDir = v),
  '--service-name': (o, v, f) => {
    if (!isServiceName(v)) {
      throw new UsageError(`${f} must be ${SERVICE_NAME_RULE}, got '${v}'`);
    }
    o.serviceName = v;
  },
  '--max-page-rows': (o, v, f) => (o.maxPageRows = wholeNumber(f, v, 1, 10_000_000)),
  '--execution-slots': (o, v, f) => (o.executionSlots = wholeNumber(f, v, 1, 64)),
  '--waiting-executions': (o, v, f) => (o.waitingExecutions = wholeNumber(f, v, 1, 100_000)),
  '--running-executions': (o, v, f) => (o.runningExecutions = wholeNumber(f, v, 1, 64)),
  '--result-cap-bytes': (o, v, f) => (o.resultCapBytes = perPlan(f, v, parseSize)),
  '--execution-time-limit': (o, v, f) => (o.executionTimeLimitMillis = perPlan(f, v, parseDuration)),
  '--execution-memory': (o, v, f) => (o.executionMemoryBytes = perPlan(f, v, parseSize)),
  '--execution-spill': (o, v, f) => (o.executionSpillBytes = perPlan(f, v, parseSize)),
  '--service-execution-memory': (o, v, f) => (o.serviceExecutionMemoryBytes = parseSize(f, v)),
  '--service-execution-spill': (o, v, f) => (o.serviceExecutionSpillBytes = parseSize(f, v)),
  '--retention': (o, v, f) => (o.retentionMillis = parseDuration(f, v)),
  '--body-idle-timeout': (o, v, f) => (o.bodyIdleMillis = parseDuration(f, v)),
  '--accounts': (o, v, f) => (o.accounts = readAccountsFile(f, v)),
  '--demo-api-key': (o, v) => (o.demoApiKey = v),
  '--rate-limit': (o, v, f) => {
    if (v !== 'on' && v !== 'off') throw new UsageError(`${f} must be on or off, got '${v}'`);
    o.rateLimit = v === 'on';
  },
  '--compression': (o, v, f) => {
    const mode = COMPRESSION_MODES.find((m) => m === v);
    if (!mode) throw new UsageError(`${f} must be ${COMPRESSION_MODES.join(', ')}, got '${v}'`);
    o.compression = mode;
  },
};

/** Flags as `--name value` or `--name=value`; an unknown flag or a bad value names the flag. */
export function parseServiceArgs(args: string[]): ServiceOptions {
  const options: ServiceOptions = { dataDir: join(homedir(), '.querydesk', 'service') };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const equals = arg.indexOf('=');
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    const apply = FLAGS[flag];
    if (!apply) throw new UsageError(`unknown flag '${flag}'`);
    const value = equals > 0 ? arg.slice(equals + 1) : args[++i];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    apply(options, value, flag);
  }
  try {
    resolveLimits(options);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return options;
}
