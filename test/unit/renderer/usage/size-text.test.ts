import { describe, expect, it } from 'vitest';
import { NO_RATES } from '../../../../main/contract/index.ts';
import { ratesOf, ratesText } from '../../../../renderer/src/usage/rates-text.ts';
import { chosenDatapoints, columnsText, datapointsOf, readCostText } from '../../../../renderer/src/usage/size-text.ts';

const summary = {
  columnNames: ['a', 'b', 'c'],
  columnTypes: ['int', 'int', 'int'],
  totalRowCount: 10,
  totalBytes: 100,
  executionTimeMillis: 5,
};

describe('a result’s size and cost', () => {
  it('takes the service’s datapoints, else counts the cells', () => {
    expect(datapointsOf({ ...summary, datapointCount: 27 })).toBe(27);
    expect(datapointsOf(summary)).toBe(30);
  });

  it('marks a cost as an estimate, and gives none without rates', () => {
    expect(readCostText(NO_RATES, 1_000)).toBeNull();
    expect(readCostText({ perDatapoint: 0.002, perExecution: 5, unit: 'credits' }, 1_000)).toBe('≈ 2 credits');
  });

  it('says how much fewer columns lower a download', () => {
    expect(chosenDatapoints(3, 12, 1_000_000)).toBe(250_000);
    expect(columnsText(3, 12, 1_000_000)).toBe('3 of 12 columns: 250,000 datapoints instead of 1,000,000');
    expect(columnsText(12, 12, 1_000_000)).toBeNull();
  });
});

describe('the rates as typed', () => {
  it('reads empty fields as no rate, and refuses what is not a number of 0 or more', () => {
    expect(ratesOf({ perDatapoint: '', perExecution: ' 10 ', unit: 'credits' })).toEqual({
      perDatapoint: null,
      perExecution: 10,
      unit: 'credits',
    });
    expect(ratesOf({ perDatapoint: '0,0001', perExecution: '', unit: '$' })).toEqual({
      perDatapoint: 0.0001,
      perExecution: null,
      unit: '$',
    });
    expect(ratesOf({ perDatapoint: '-1', perExecution: '', unit: '' })).toBe(
      '“Per datapoint” must be a number of 0 or more, or empty (“-1” is not).',
    );
    expect(ratesText({ perDatapoint: null, perExecution: 2, unit: 'credits' })).toEqual({
      perDatapoint: '',
      perExecution: '2',
      unit: 'credits',
    });
  });
});
