import { describe, expect, it } from 'vitest';
import { floatWord } from '../../../../main/common/dune-types/index.ts';

describe("a double that is no number, in Dune's words", () => {
  it("reads Trino's spelling and DuckDB's, in any case, and nothing else", () => {
    expect(['NaN', 'nan', '-nan', 'Infinity', 'inf', '+inf', 'INF', '-inf', '-Infinity', ' infinity '].map(floatWord)).toEqual([
      'NaN',
      'NaN',
      'NaN',
      'Infinity',
      'Infinity',
      'Infinity',
      'Infinity',
      '-Infinity',
      '-Infinity',
      'Infinity',
    ]);
    expect(['0.1', '', 'info', 'nano', '1e400'].map(floatWord)).toEqual([null, null, null, null, null]);
  });
});
