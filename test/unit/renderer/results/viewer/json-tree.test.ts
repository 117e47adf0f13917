import { describe, expect, it } from 'vitest';
import { countIn, countMatches, readJsonTree, segments, writeJson } from '../../../../../renderer/src/results/viewer/json-tree.ts';

describe("the cell viewer's JSON", () => {
  it('reads nested values into a tree whose numbers keep every digit', () => {
    const tree = readJsonTree(
      '{"to":"0xab","amount":115792089237316195423570985008687907853269984665640564039457584007913129639935,"tags":[1.50,true,null]}',
    )!;
    expect(tree.type).toBe('object');
    expect(tree.children.map((c) => [c.key, c.type, c.text])).toEqual([
      ['to', 'string', '"0xab"'],
      ['amount', 'number', '115792089237316195423570985008687907853269984665640564039457584007913129639935'],
      ['tags', 'array', ''],
    ]);
    expect(tree.children[2]!.children.map((c) => [c.key, c.text])).toEqual([
      ['0', '1.50'],
      ['1', 'true'],
      ['2', 'null'],
    ]);
  });

  it('writes it out indented, exactly', () => {
    const text = '{"a":[1,{"b":12345678901234567890123}],"c":{},"d":[]}';
    expect(writeJson(readJsonTree(text)!)).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": 12345678901234567890123\n    }\n  ],\n  "c": {},\n  "d": []\n}',
    );
  });

  it('takes only an object or an array for JSON to fold; other text stays text', () => {
    expect(readJsonTree('12')).toBeNull();
    expect(readJsonTree('"x"')).toBeNull();
    expect(readJsonTree("{'a': 1}")).toBeNull();
    expect(readJsonTree(' [1, 2]')?.children).toHaveLength(2);
  });

  it('finds a search in names and values, without regard to case', () => {
    const tree = readJsonTree('{"Token":"USDC","pair":["usdc","weth"]}')!;
    expect(countMatches(tree, 'usdc')).toBe(2);
    expect(countMatches(tree, 'token')).toBe(1);
    expect(countMatches(tree, '')).toBe(0);
    expect(segments('a USDC and usdc', 'usdc')).toEqual([
      { text: 'a ', match: false },
      { text: 'USDC', match: true },
      { text: ' and ', match: false },
      { text: 'usdc', match: true },
    ]);
    expect(countIn('aaaa', 'aa')).toBe(2);
  });
});
