import { describe, expect, it } from 'vitest';
import { parseServiceArgs, UsageError } from '../../../main/service/cli-args.ts';

describe('service flags', () => {
  it('reads every flag, as `--flag value` or `--flag=value`', () => {
    expect(
      parseServiceArgs([
        '--port',
        '0',
        '--data-dir=/tmp/x',
        '--host',
        '127.0.0.1',
        '--service-name',
        'ACME',
        '--max-page-rows=500',
        '--execution-slots',
        '2',
        '--waiting-executions=20',
      ]),
    ).toEqual({
      port: 0,
      dataDir: '/tmp/x',
      host: '127.0.0.1',
      serviceName: 'ACME',
      maxPageRows: 500,
      executionSlots: 2,
      waitingExecutions: 20,
    });
  });

  it('names the flag in every refusal', () => {
    expect(() => parseServiceArgs(['--prot', '1'])).toThrow(new UsageError("unknown flag '--prot'"));
    expect(() => parseServiceArgs(['--port', '70000'])).toThrow(/^--port must be/);
    expect(() => parseServiceArgs(['--port'])).toThrow('--port needs a value');
    expect(() => parseServiceArgs(['--service-name', 'x-y'])).toThrow(/^--service-name must be/);
    expect(() => parseServiceArgs(['--compression', 'gzip'])).toThrow(
      new UsageError("--compression must be auto, always, never, got 'gzip'"),
    );
  });

  it('takes execution limits for every plan or for some, and the service totals', () => {
    const MB = 1024 ** 2;
    expect(
      parseServiceArgs([
        '--running-executions',
        '3',
        '--execution-time-limit',
        '5m',
        '--execution-memory',
        'free=128MB,premium=1GB',
        '--execution-spill=plus=2GB',
        '--result-cap-bytes',
        'free=64MB',
        '--service-execution-memory',
        '2GB',
        '--service-execution-spill',
        '20GB',
      ]),
    ).toMatchObject({
      runningExecutions: 3,
      executionTimeLimitMillis: 300_000,
      executionMemoryBytes: { free: 128 * MB, premium: 1024 * MB },
      executionSpillBytes: { plus: 2048 * MB },
      resultCapBytes: { free: 64 * MB },
      serviceExecutionMemoryBytes: 2048 * MB,
      serviceExecutionSpillBytes: 20480 * MB,
    });
    expect(() => parseServiceArgs(['--execution-memory', 'gold=1GB'])).toThrow(
      new UsageError("--execution-memory: 'gold' is not a plan (free, plus, premium), in 'gold=1GB'"),
    );
    expect(() => parseServiceArgs(['--execution-time-limit', 'plus=soon'])).toThrow(/^--execution-time-limit plus must be a duration/);
    expect(() => parseServiceArgs(['--execution-time-limit', 'free=30d'])).toThrow(
      new UsageError("the free plan's time limit (30 days) is more than the longest the service can time (24 days)"),
    );
    expect(() => parseServiceArgs(['--execution-spill', 'premium=20GB'])).toThrow(
      new UsageError("the premium plan's execution spill (20 GB) is more than the service's total for executions (8 GB)"),
    );
  });

  it('compresses answers as told', () => {
    expect(parseServiceArgs(['--compression', 'always']).compression).toBe('always');
    expect(parseServiceArgs(['--compression=never']).compression).toBe('never');
    expect(parseServiceArgs([]).compression).toBeUndefined();
  });

  it('takes the body idle time as a duration', () => {
    expect(parseServiceArgs(['--body-idle-timeout', '3s']).bodyIdleMillis).toBe(3000);
    expect(() => parseServiceArgs(['--body-idle-timeout', '3'])).toThrow(/^--body-idle-timeout must be a duration/);
  });
});
