import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_EXPLORERS } from '../../../../../main/common/explorers/index.ts';
import { cellMenu, columnMenu, type MenuActions } from '../../../../../renderer/src/results/grid/cell-menu.ts';
import { ResultView } from '../../../../../renderer/src/results/result-view.svelte.ts';

const ADDRESS = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const RESULT = {
  columnNames: ['amount', 'to', 'detail'],
  columnTypes: ['uint256', 'varbinary', 'array(varchar)'],
  totalRowCount: 1,
  totalBytes: 1,
  executionTimeMillis: 1,
};

function actions(): MenuActions {
  return { profile: vi.fn(), askDecimals: vi.fn(), askChain: vi.fn(), follow: vi.fn(), openViewer: vi.fn(), copy: vi.fn() };
}

describe("the grid's context menus", () => {
  it("offers an integer column's scale, and its undoing once scaled", () => {
    const view = new ResultView(RESULT);
    const [amount, to] = view.columns;
    const act = actions();
    expect(columnMenu(to!, view, act).map((i) => i.label)).toEqual(['Profile of to']);
    const items = columnMenu(amount!, view, act);
    expect(items.map((i) => i.label)).toEqual(['Profile of amount', 'Scale by decimals…']);
    items[1]!.run();
    expect(act.askDecimals).toHaveBeenCalledWith('amount');
    view.scaleColumn('amount', 6);
    const scaled = columnMenu(amount!, view, act);
    expect(scaled.at(-1)?.label).toBe('Show raw values (not ÷1e6)');
    scaled.at(-1)!.run();
    expect(view.decimalsOf('amount')).toBe(0);
  });

  it("puts a cell's link, chain and viewer before the copies, and none of them for a block", () => {
    const view = new ResultView(RESULT);
    const to = view.columns[1]!;
    const act = actions();
    const cell = {
      columnName: 'to',
      kind: 'binary' as const,
      value: ADDRESS,
      shown: ADDRESS,
      rowColumns: ['amount', 'to', 'detail'],
      row: ['1', ADDRESS, null],
    };
    const items = cellMenu(cell, to, view, DEFAULT_EXPLORERS, act);
    expect(items.slice(0, 4).map((i) => i.label)).toEqual([
      'Open address in explorer (ethereum)',
      'Chain for explorer links (ethereum)…',
      'Open in cell viewer…',
      'Copy (tab-separated, for spreadsheets)',
    ]);
    items[0]!.run();
    expect(act.follow).toHaveBeenCalledWith(`https://etherscan.io/address/${ADDRESS}`);
    view.defaultChain = 'gnosis';
    expect(cellMenu(cell, to, view, DEFAULT_EXPLORERS, act)[0]?.label).toBe('Open address in explorer (gnosis)');
    const block = cellMenu(null, to, view, DEFAULT_EXPLORERS, act).map((i) => i.label);
    expect(block[0]).toBe('Copy (tab-separated, for spreadsheets)');
    expect(block.at(-1)).toBe('Profile of to');
  });

  it("takes the chain from the row's chain column when that column is hidden", () => {
    const view = new ResultView({
      ...RESULT,
      columnNames: ['blockchain', 'amount', 'to'],
      columnTypes: ['varchar', 'uint256', 'varbinary'],
    });
    view.toggleColumn(0);
    expect(view.visible.map((c) => c.name)).toEqual(['amount', 'to']);
    // the grid's rows still hold it, after the columns it shows
    expect(view.rowColumns.map((c) => c.name)).toEqual(['amount', 'to', 'blockchain']);
    expect(view.rowColumnsParam).toBe('amount,to,blockchain');
    expect(view.request().columns).toBe('amount,to');
    const cell = {
      columnName: 'to',
      kind: 'binary' as const,
      value: ADDRESS,
      shown: ADDRESS,
      rowColumns: view.rowColumns.map((c) => c.name),
      row: ['1', ADDRESS, 'base'],
    };
    expect(cellMenu(cell, view.columns[2]!, view, DEFAULT_EXPLORERS, actions())[0]?.label).toBe('Open address in explorer (base)');
    view.toggleColumn(1);
    expect(view.rowColumns.map((c) => c.name)).toEqual(['to', 'blockchain']);
    view.showAll();
    expect(view.rowColumnsParam).toBeUndefined();
    expect(view.rowColumns.map((c) => c.name)).toEqual(['blockchain', 'amount', 'to']);
  });
});
