import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../../main/service/dunesql/tokens.ts';

const kinds = (sql: string) =>
  tokenize(sql)
    .filter((t) => t.kind !== 'space')
    .map((t) => `${t.kind}:${t.text}`);

describe('tokenize', () => {
  it('gives the text back exactly, token by token', () => {
    const sql = "SELECT \"a\"\"b\", 'it''s' -- 0xff\n/* a /* nested */ comment */ E'x\\'y' $$0xab$$ 1.5e3 0xAbCd";
    expect(
      tokenize(sql)
        .map((t) => t.text)
        .join(''),
    ).toBe(sql);
  });

  it('keeps strings, quoted names and comments whole, whatever they hold', () => {
    expect(kinds(`'0xab -- x' "0xab" -- 0xab\n/* 0xab */`)).toEqual([
      "string:'0xab -- x'",
      'quoted:"0xab"',
      'comment:-- 0xab',
      'comment:/* 0xab */',
    ]);
    expect(kinds(`E'a\\'0xab' $tag$ 'x' 0xab $tag$`)).toEqual([`string:E'a\\'0xab'`, "string:$tag$ 'x' 0xab $tag$"]);
  });

  it('reads 0x and hex digits as a varbinary literal, and nothing longer', () => {
    expect(kinds('0xa0B8 = 0xzz, 0x1g')).toEqual(['hex:0xa0B8', 'symbol:=', 'number:0', 'word:xzz', 'symbol:,', 'number:0', 'word:x1g']);
  });

  it('ends an escape string at its first quote no backslash escapes', () => {
    expect(kinds(`E'a\\\\' 0xab E'\\'' 0xcd`)).toEqual([`string:E'a\\\\'`, 'hex:0xab', `string:E'\\''`, 'hex:0xcd']);
  });

  it('runs a string or comment left open to the end of the text', () => {
    expect(kinds("SELECT 'open")).toEqual(['word:SELECT', "string:'open"]);
    expect(kinds('/* open /* */')).toEqual(['comment:/* open /* */']);
  });

  it('reads numbers, words and symbols', () => {
    expect(kinds('a.b_1+.5*2e-3')).toEqual(['word:a', 'symbol:.', 'word:b_1', 'symbol:+', 'number:.5', 'symbol:*', 'number:2e-3']);
  });
});
