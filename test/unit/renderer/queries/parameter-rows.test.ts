import { describe, expect, it } from 'vitest';
import type { QueryParameter } from '../../../../main/contract/index.ts';
import { definitionOf, fedFrom, newRow, rowOf, rowProblem } from '../../../../renderer/src/queries/parameter-rows.ts';
import { FED_ENUM } from '../../../dune-shapes/dune-parameter.ts';

// The parameters dialog's rows: saving sends the whole list, so what the dialog does not edit goes
// back as it came, and an enum fed by another query's results needs no typed options.

const fed: QueryParameter = FED_ENUM;

describe('a parameter row', () => {
  it('saves a definition back with every field it does not edit', () => {
    expect(definitionOf(rowOf(fed))).toEqual(fed);
    const described: QueryParameter = { key: 'min', type: 'number', value: '5', description: 'USD' };
    expect(definitionOf({ ...rowOf(described), value: ' 7 ' })).toEqual({ ...described, value: '7' });
  });

  it('keeps the source of a fed enum when another field is edited, and asks for no options', () => {
    const row = { ...rowOf({ ...fed, enumOptions: undefined }), value: 'optimism', multi: true };
    expect(fedFrom(row)).toEqual({ queryId: 4242, columnName: 'blockchain' });
    expect(rowProblem([row], 0)).toBeNull();
    const { enumOptions: _, ...rest } = fed;
    expect(definitionOf(row)).toEqual({ ...rest, value: 'optimism', isMultiselect: true });
  });

  it('drops what only an enum has when the type changes, and gets it back when it changes back', () => {
    const text = { ...rowOf(fed), type: 'text' as const };
    expect(fedFrom(text)).toBeNull();
    expect(definitionOf(text)).toEqual({ key: 'chain', type: 'text', value: 'ethereum', description: 'The chain', values: ['ethereum'] });
    expect(definitionOf({ ...text, type: 'enum' })).toEqual(fed);
  });

  it('asks a typed enum for options, and for a default among them unless free-form', () => {
    const typed = { ...newRow('pick'), type: 'enum' as const };
    expect(rowProblem([typed], 0)).toBe('List the options, one to a line.');
    const outside = { ...typed, options: 'a\n b \n\n', value: 'c' };
    expect(rowProblem([outside], 0)).toBe('The default must be one of the options.');
    const freeform = { ...outside, source: { key: 'pick', type: 'enum', value: 'a', isFreeformAllowed: true } };
    expect(rowProblem([freeform], 0)).toBeNull();
    expect(definitionOf(freeform)).toEqual({
      key: 'pick',
      type: 'enum',
      value: 'c',
      enumOptions: ['a', 'b'],
      isMultiselect: false,
      isFreeformAllowed: true,
    });
  });

  it('keeps an option with a comma whole, and options left alone exactly as they came', () => {
    const listed: QueryParameter = {
      key: 'dex',
      type: 'enum',
      value: 'Uniswap, v3',
      enumOptions: ['Uniswap, v3', ' Curve ', ''],
      isMultiselect: false,
    };
    expect(definitionOf(rowOf(listed))).toEqual(listed);
    // edited: one option to a line, each trimmed, empty lines dropped
    const edited = { ...rowOf(listed), options: 'Uniswap, v3\nCurve\nBalancer, v2' };
    expect(rowProblem([edited], 0)).toBeNull();
    expect(definitionOf(edited).enumOptions).toEqual(['Uniswap, v3', 'Curve', 'Balancer, v2']);
  });
});
