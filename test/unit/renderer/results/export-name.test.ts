import { describe, expect, it } from 'vitest';
import { exportFileName } from '../../../../renderer/src/results/export-name.ts';

describe('exportFileName', () => {
  it('names the file after the query and when its run ended, in local time', () => {
    const at = new Date(2026, 10, 23, 11, 30, 59);
    expect(exportFileName('Daily volume by chain', at, 'all')).toBe('daily-volume-by-chain_2026-11-23T1130.csv');
    expect(exportFileName('  Fées / “quoted” ', at, 'view')).toBe('fees-quoted_2026-11-23T1130_view.csv');
    expect(exportFileName('???', at, 'all')).toBe('result_2026-11-23T1130.csv');
    expect(exportFileName('Daily volume by chain', at, 'view', 'parquet')).toBe('daily-volume-by-chain_2026-11-23T1130_view.parquet');
  });
});
