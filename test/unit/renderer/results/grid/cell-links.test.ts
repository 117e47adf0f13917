import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORERS } from '../../../../../main/common/explorers/index.ts';
import { explorerAction, isViewable, type CellTarget } from '../../../../../renderer/src/results/grid/cell-links.ts';

const ADDRESS = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const HASH = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';

function cell(parts: Partial<CellTarget>): CellTarget {
  return { columnName: 'from', kind: 'binary', value: ADDRESS, shown: ADDRESS, rowColumns: ['from'], row: [ADDRESS], ...parts };
}

describe("a cell's explorer link", () => {
  it("goes to the row's chain, else the query's default, else ethereum", () => {
    expect(explorerAction(DEFAULT_EXPLORERS, cell({}), null)).toEqual({
      label: 'Open address in explorer (ethereum)',
      url: `https://etherscan.io/address/${ADDRESS}`,
    });
    expect(explorerAction(DEFAULT_EXPLORERS, cell({}), 'base')).toMatchObject({ url: `https://basescan.org/address/${ADDRESS}` });
    const onArbitrum = cell({ columnName: 'hash', shown: HASH, value: HASH, rowColumns: ['hash', 'blockchain'], row: [HASH, 'arbitrum'] });
    expect(explorerAction(DEFAULT_EXPLORERS, onArbitrum, 'base')).toEqual({
      label: 'Open transaction in explorer (arbitrum)',
      url: `https://arbiscan.io/tx/${HASH}`,
    });
  });

  it('is offered, disabled with the reason, for a chain the Settings have no explorer for', () => {
    const unknown = cell({ rowColumns: ['from', 'chain'], row: [ADDRESS, 'mychain'] });
    expect(explorerAction(DEFAULT_EXPLORERS, unknown, null)).toMatchObject({
      disabled: true,
      title: expect.stringContaining('no address link for the chain mychain'),
    });
  });

  it('is not offered for values no explorer shows, nor for nulls and other kinds', () => {
    expect(explorerAction(DEFAULT_EXPLORERS, cell({ shown: '0xa9059cbb', value: '0xa9059cbb' }), null)).toBeNull();
    expect(explorerAction(DEFAULT_EXPLORERS, cell({ value: null, shown: 'null' }), null)).toBeNull();
    expect(explorerAction(DEFAULT_EXPLORERS, cell({ kind: 'json' }), null)).toBeNull();
    expect(
      explorerAction(DEFAULT_EXPLORERS, cell({ kind: 'integer', columnName: 'block_number', value: 19000000, shown: '19000000' }), null),
    ).toMatchObject({
      url: 'https://etherscan.io/block/19000000',
    });
  });
});

describe('the cell viewer', () => {
  it('opens for nested values, JSON and long text only', () => {
    expect(isViewable('nested', '[1]')).toBe(true);
    expect(isViewable('json', '{}')).toBe(true);
    expect(isViewable('text', 'short')).toBe(false);
    expect(isViewable('text', 'x'.repeat(200))).toBe(true);
    expect(isViewable('nested', null)).toBe(false);
  });
});
