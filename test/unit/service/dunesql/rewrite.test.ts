import { describe, expect, it } from 'vitest';
import { javaPattern, mysqlPattern } from '../../../../main/service/dunesql/date-patterns.ts';
import { DialectError, rewriteDuneSql } from '../../../../main/service/dunesql/rewrite.ts';

const sql = (text: string) => rewriteDuneSql(text).sql;

function refusal(text: string): { message: string; offset: number } {
  try {
    rewriteDuneSql(text);
  } catch (error) {
    if (error instanceof DialectError) return { message: error.message, offset: error.offset };
    throw error;
  }
  throw new Error('not refused');
}

describe('rewriteDuneSql', () => {
  it('leaves DuckDB SQL as it is', () => {
    const text = "SELECT sum(x) AS s, '0xab' AS t, \"0xab\" FROM t -- 0xab\nWHERE date_trunc('day', ts) > now()";
    expect(sql(text)).toBe(text);
  });

  it('makes varbinary literals BLOBs, outside strings and comments', () => {
    expect(sql("SELECT 0xA0b8 IN (0x00ff), '0xab' -- 0xcd")).toBe("SELECT '\\xA0\\xb8'::BLOB IN ('\\x00\\xff'::BLOB), '0xab' -- 0xcd");
  });

  it('refuses a varbinary literal of an odd number of digits, where it is', () => {
    expect(refusal('SELECT 1, 0xabc')).toEqual({ message: 'varbinary literal 0xabc has an odd number of hex digits', offset: 10 });
  });

  it('drops the precision of timestamp(3), which DuckDB does not take', () => {
    expect(sql("SELECT CAST(x AS timestamp(3) with time zone), timestamp (6) '2024-01-01'")).toBe(
      "SELECT CAST(x AS timestamp with time zone), timestamp  '2024-01-01'",
    );
  });

  it('turns date patterns into strftime ones', () => {
    expect(sql("SELECT date_format(t, '%Y-%m-%d %H:%i:%s'), format_datetime(t, 'yyyy-MM-dd''T''HH:mm')")).toBe(
      "SELECT strftime(t, '%Y-%m-%d %H:%M:%S'), strftime(t, '%Y-%m-%dT%H:%M')",
    );
  });

  it('parses text by a date pattern with strptime', () => {
    expect(sql("SELECT date_parse(s, '%Y-%m-%d %H:%i'), parse_datetime(s, 'yyyy-MM-dd')")).toBe(
      "SELECT strptime(s, '%Y-%m-%d %H:%M'), strptime(s, '%Y-%m-%d')",
    );
  });

  it('refuses a pattern that is not a literal, or a specifier with no equivalent', () => {
    expect(refusal('SELECT date_format(t, p)')).toEqual({
      message: '`date_format` needs its pattern written as a text literal offline',
      offset: 7,
    });
    expect(refusal("SELECT format_datetime(t, 'GG')")).toEqual({ message: "the date pattern's GG is not available offline", offset: 26 });
  });

  it('names a DuneSQL function the offline engine cannot run, and where it is called', () => {
    expect(refusal('SELECT\n  cardinality(approx_set(x)) FROM t')).toEqual({
      message: '`approx_set` is not available offline',
      offset: 21,
    });
    // a column or a qualified name of that spelling is not a call of it
    expect(sql('SELECT merge, t.merge(1) FROM t')).toBe('SELECT merge, t.merge(1) FROM t');
  });

  it("gives aggregates with DISTINCT, ORDER BY, FILTER or OVER to DuckDB's own", () => {
    expect(sql('SELECT sum(x), sum(DISTINCT x), sum(x) FILTER (WHERE y), sum(x) OVER (), approx_distinct(x) OVER ()')).toBe(
      'SELECT sum(x), system.main.sum(DISTINCT dunesql_exact_sum_input(x)), system.main.sum(dunesql_exact_sum_input(x)) FILTER (WHERE y), ' +
        'system.main.sum(dunesql_exact_sum_input(x)) OVER (), approx_count_distinct(x) OVER ()',
    );
  });

  it("reads an ORDER BY as the call's own only at its own level", () => {
    const text = 'SELECT sum((SELECT max(v) FROM t ORDER BY 1)), sum(x) OVER (ORDER BY y)';
    expect(sql(text)).toBe('SELECT sum((SELECT max(v) FROM t ORDER BY 1)), system.main.sum(dunesql_exact_sum_input(x)) OVER (ORDER BY y)');
  });

  it("gives a sum of a bare NULL to DuckDB's own, as no overload of the macro is nearer", () => {
    expect(sql('SELECT sum( NULL ), sum(NULL + 1)')).toBe('SELECT system.main.sum( NULL ), sum(NULL + 1)');
  });

  it('keeps a summed value of a sum with ORDER BY apart from its order', () => {
    expect(sql('SELECT sum( a + 0x01 ORDER BY b) FROM t')).toBe(
      "SELECT system.main.sum( dunesql_exact_sum_input(a + '\\x01'::BLOB) ORDER BY b) FROM t",
    );
  });

  it("maps positions of the rewritten SQL back to the user's", () => {
    const text = 'SELECT 0xabcd, nope';
    const rewritten = rewriteDuneSql(text);
    expect(rewritten.originalOffset(rewritten.sql.indexOf('nope'))).toBe(text.indexOf('nope'));
    expect(rewritten.originalOffset(rewritten.sql.indexOf('BLOB'))).toBe(text.indexOf('0xabcd'));
  });
});

describe('date patterns', () => {
  it('reads MySQL specifiers', () => {
    expect(mysqlPattern('%M %e, %Y %T %p %%')).toBe('%B %-d, %Y %H:%M:%S %p %%');
  });
  it('reads Java letters by their count, quoted text as it is', () => {
    expect(javaPattern("EEEE d MMM yy 'at' h:mm a SSS")).toBe('%A %-d %b %y at %-I:%M %p %g');
    expect(javaPattern('YYYY xxxx-ww')).toBe('%Y %G-%V');
  });
});
