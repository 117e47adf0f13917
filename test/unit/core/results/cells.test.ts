import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../../main/common/dune-types/index.ts';
import { toCell } from '../../../../main/core/results/cells.ts';

// A results page as the hosted service writes it: the rows, then their metadata.
function page(columns: [string, string][], rows: string[], extra = ''): string {
  const names = JSON.stringify(columns.map(([name]) => name));
  const types = JSON.stringify(columns.map(([, type]) => type));
  return `{"execution_id":"01H","state":"QUERY_STATE_COMPLETED","result":{"rows":[${rows.join(',')}],"metadata":{"column_names":${names},"column_types":${types},"row_count":${rows.length},"total_row_count":${rows.length}${extra}}}}`;
}

function cells(text: string): unknown[][] {
  const body = parseJsonExact(text) as { result: { rows: Record<string, unknown>[] } };
  return body.result.rows.map((row) => Object.values(row).map(toCell));
}

const NESTED: [string, string][] = [
  ['id', 'bigint'],
  ['price', 'decimal(10,2)'],
  ['xs', 'array(double)'],
  ['ds', 'array(decimal(10,2))'],
  ['token', 'row(p decimal(10,2), raw uint256, z double)'],
  ['legs', 'array(row(v double))'],
  ['m', 'map(varchar, double)'],
];

describe('a nested value from a JSON page', () => {
  it('keeps every number as the service wrote it: the sign of a zero, a scale, an exponent', () => {
    const text = page(NESTED, [
      '{"id":1,"price":98.80,"xs":[-0.0, 0.1, 1.0E-5, 2.0],"ds":[98.80],"token":{"p":1.50,"raw":1000000000000000000000000,"z":-0.0},"legs":[{"v":3.0}],"m":{"a":0.10}}',
    ]);
    expect(cells(text)).toEqual([
      [1, 98.8, '[-0.0,0.1,1.0E-5,2.0]', '[98.80]', '{"p":1.50,"raw":1000000000000000000000000,"z":-0.0}', '[{"v":3.0}]', '{"a":0.10}'],
    ]);
  });

  it('leaves the cells beside it as on a page of flat values: numbers, and text past a double', () => {
    const text = page(
      [
        ['id', 'bigint'],
        ['amount', 'uint256'],
        ['d', 'double'],
        ['z', 'double'],
        ['xs', 'array(bigint)'],
      ],
      ['{"id":7,"amount":115792089237316195423570985008687907853269984665640564039457584007913129639935,"d":1.0E-5,"z":-0.0,"xs":[1,2]}'],
    );
    const [row] = cells(text);
    expect(row).toEqual([7, '115792089237316195423570985008687907853269984665640564039457584007913129639935', 0.00001, -0, '[1,2]']);
    expect(Object.is(row![3], -0)).toBe(true);
  });

  it("leaves the page's own numbers numbers, however written", () => {
    const text = page(NESTED.slice(0, 3), ['{"id":1,"price":1.0,"xs":[1.0]}'], ',"execution_time_millis":1.0E3,"cost":0.50');
    const body = parseJsonExact(text) as { result: { metadata: Record<string, unknown> } };
    expect(body.result.metadata).toMatchObject({ row_count: 1, execution_time_millis: 1000, cost: 0.5 });
    expect(cells(text)).toEqual([[1, 1, '[1.0]']]);
  });

  it('is written without the spaces the page had between its parts', () => {
    expect(cells(page([['xs', 'array(bigint)']], ['{"xs":[1, 2]}']))).toEqual([['[1,2]']]);
  });
});
