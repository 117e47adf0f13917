import { describe, expect, it } from 'vitest';
import type { ParameterDefinition } from '../../../../main/service/queries/query-store.ts';
import { ParameterError, resolveParameters, substitute } from '../../../../main/service/queries/template.ts';

const defs: ParameterDefinition[] = [
  { key: 'chain', type: 'text', value: 'ethereum' },
  { key: 'unused', type: 'number', value: '1' },
];
const sql = "select * from t where chain = '{{chain}}' and n > {{ min }} and c = '{{chain}}'";

describe('query templates', () => {
  it('substitutes given values as text, defaults for the others, lists comma-joined', () => {
    const values = resolveParameters(sql, defs, { min: 5 });
    expect(values).toEqual({ chain: 'ethereum', min: '5' });
    expect(substitute(sql, values)).toBe("select * from t where chain = 'ethereum' and n > 5 and c = 'ethereum'");
    expect(resolveParameters(sql, defs, { min: '1', chain: ['a', 'b'] }).chain).toBe('a,b');
  });

  it('accepts a defined parameter the SQL does not use', () => {
    expect(resolveParameters(sql, defs, { min: 1, unused: '2' })).toEqual({ chain: 'ethereum', min: '1' });
  });

  it('refuses unknown names, missing values and values that are not text', () => {
    expect(() => resolveParameters(sql, defs, { min: 1, nope: 1, other: 2 })).toThrow(
      new ParameterError('unknown parameters (nope, other)'),
    );
    expect(() => resolveParameters(sql, defs, {})).toThrow(/missing parameters \(min\)/);
    expect(() => resolveParameters(sql, defs, { min: { a: 1 } })).toThrow(/invalid value for parameter min/);
  });

  it('takes names that are also keys of every JavaScript object as any other name', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const named = `select '{{${name}}}' as v`;
      const withDefault: ParameterDefinition[] = [{ key: name, type: 'text', value: 'fallback' }];
      expect(substitute(named, resolveParameters(named, withDefault, {})), name).toBe("select 'fallback' as v");
      const given = JSON.parse(`{"${name}": "given"}`) as Record<string, unknown>;
      expect(substitute(named, resolveParameters(named, withDefault, given)), name).toBe("select 'given' as v");
      expect(() => resolveParameters(named, [], {}), name).toThrow(`missing parameters (${name})`);
    }
    expect(substitute('select {{constructor}}', {})).toBe('select {{constructor}}');
  });

  it('takes a list for a multi-select enum only', () => {
    const chains = ['a', 'b', 'c'];
    const enums = (isMultiselect?: boolean): ParameterDefinition[] => [
      { key: 'e', type: 'enum', value: 'a', enumOptions: chains, ...(isMultiselect === undefined ? {} : { isMultiselect }) },
    ];
    const one = "select '{{e}}'";
    expect(resolveParameters(one, enums(true), { e: ['a', 'b'] })).toEqual({ e: 'a,b' });
    for (const single of [enums(), enums(false)]) {
      expect(resolveParameters(one, single, { e: 'b' })).toEqual({ e: 'b' });
      for (const list of [['a', 'b'], ['a']]) {
        expect(() => resolveParameters(one, single, { e: list })).toThrow(
          new ParameterError('parameter e takes one of its options, not a list: it is not a multi-select'),
        );
      }
    }
  });

  it("checks a default by its parameter's type before it goes into the SQL", () => {
    const run = (definition: ParameterDefinition) => () => resolveParameters(`select {{${definition.key}}}`, [definition], {});
    expect(run({ key: 'n', type: 'number', value: '1) union select 42 --' })).toThrow(
      new ParameterError(
        "the default of parameter n must be a number, got '1) union select 42 --': give the parameter a value, or correct its default",
      ),
    );
    expect(run({ key: 'd', type: 'datetime', value: 'soon' })).toThrow(/^the default of parameter d must be a date-time/);
    expect(run({ key: 'e', type: 'enum', value: 'x', enumOptions: ['a'] })).toThrow(
      /^the default of parameter e must be one of its options \(a\), got 'x'/,
    );
    expect(run({ key: 'm', type: 'enum', value: 'a, b', enumOptions: ['a', 'b'], isMultiselect: true })()).toEqual({ m: 'a, b' });
    // a value given stands in for the default, which is then not used
    const bad: ParameterDefinition = { key: 'n', type: 'number', value: 'abc' };
    expect(resolveParameters('select {{n}}', [bad], { n: 2 })).toEqual({ n: '2' });
  });

  it('takes a value outside the options of an enum that allows free-form values, default included', () => {
    const freeform: ParameterDefinition = { key: 'e', type: 'enum', value: 'typed', enumOptions: ['a'], isFreeformAllowed: true };
    expect(resolveParameters("select '{{e}}'", [freeform], {})).toEqual({ e: 'typed' });
    expect(resolveParameters("select '{{e}}'", [freeform], { e: 'other' })).toEqual({ e: 'other' });
    expect(() => resolveParameters("select '{{e}}'", [{ ...freeform, isFreeformAllowed: false }], {})).toThrow(
      /must be one of its options/,
    );
  });
});
