import { describe, expect, it } from 'vitest';
import { rewriteDuneSql } from '../../../../main/service/dunesql/rewrite.ts';
import { sqlError, sqlErrorAt } from '../../../../main/service/executions/sql-error.ts';

describe('sqlError', () => {
  it("turns DuckDB's caret into a 1-based line and column", () => {
    const sql = 'select 1 as a,\n  x from foo';
    const message = 'Catalog Error: Table with name foo does not exist!\n\nLINE 2:   x from foo\n                 ^';
    expect(sqlError(message, sql)).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: "line 2:10: Table 'foo' does not exist",
      line: 2,
      column: 10,
    });
  });

  it('finds the column on a long line that DuckDB shows cut', () => {
    const sql = `select ${Array.from({ length: 30 }, (_, i) => `c${i} + 1 AS a${i}`).join(', ')}, 1.25::decimal(10,2) dec from t`;
    const column = sql.indexOf('dec from') + 1;
    const shownFrom = column - 1 - 40;
    const message = `Parser Error: syntax error at or near "dec"\n\nLINE 1: ...${sql.slice(shownFrom, shownFrom + 60)}...\n${' '.repeat('LINE 1: ...'.length + 40)}^`;
    expect(sqlError(message, sql)).toMatchObject({ line: 1, column });
  });

  it('leaves line and column out when the message has no location', () => {
    expect(sqlError('INTERRUPT Error: Interrupted!', 'select 1')).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: 'INTERRUPT Error: Interrupted!',
    });
  });

  it('locates an error in SQL that was rewritten where the user wrote it', () => {
    const sql = 'select 0xabcd as a,\n  0x01 as b, x from foo';
    const ran = rewriteDuneSql(sql);
    const shown = ran.sql.split('\n')[1]!;
    const message = `Binder Error: column x not found\n\nLINE 2: ${shown}\n${' '.repeat('LINE 2: '.length + shown.indexOf('x from'))}^`;
    expect(sqlError(message, sql, ran)).toMatchObject({ line: 2, column: sql.split('\n')[1]!.indexOf('x from') + 1 });
  });

  it('gives an error found before running its line and column', () => {
    expect(sqlErrorAt('`merge` is not available offline', 'select\n  merge(x)', 9)).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: 'line 2:3: `merge` is not available offline',
      line: 2,
      column: 3,
    });
  });
});
