import { describe, expect, it } from 'vitest';
import { parseServiceArgs, UsageError } from '../../../main/service/cli-args.ts';

describe('service flags', () => {
  it('reads every flag, as `--flag value` or `--flag=value`', () => {
    expect(
      parseServiceArgs(['--port', '0', '--data-dir=/tmp/x', '--host', '127.0.0.1', '--service-name', 'ACME', '--max-page-rows=500', '--execution-slots', '2']),
    ).toEqual({ port: 0, dataDir: '/tmp/x', host: '127.0.0.1', serviceName: 'ACME', maxPageRows: 500, executionSlots: 2 });
  });

  it('names the flag in every refusal', () => {
    expect(() => parseServiceArgs(['--prot', '1'])).toThrow(new UsageError("unknown flag '--prot'"));
    expect(() => parseServiceArgs(['--port', '70000'])).toThrow(/^--port must be/);
    expect(() => parseServiceArgs(['--port'])).toThrow('--port needs a value');
    expect(() => parseServiceArgs(['--service-name', 'x-y'])).toThrow(/^--service-name must be/);
    expect(() => parseServiceArgs(['--compression', 'gzip'])).toThrow(new UsageError("--compression must be auto, always, never, got 'gzip'"));
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
