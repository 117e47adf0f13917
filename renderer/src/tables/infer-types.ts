import type { TableColumnTypeName } from '$contract/table-rules.ts';

// The type of each column, from every value of the file: the narrowest type all its non-empty
// values can be read as. Kept strict so that the service can convert every value when a table is
// made from this schema: "007" stays text (it is not the number 7), a time zone keeps a time text,
// an integer too long for bigint is a double.

const PATTERNS: [TableColumnTypeName, RegExp][] = [
  ['boolean', /^(true|false)$/i],
  ['bigint', /^[+-]?(0|[1-9]\d{0,17})$/],
  ['double', /^[+-]?((0|[1-9]\d*)(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['timestamp', /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/],
];

export class TypeInference {
  /** Per column, a bit for each pattern its values still all match. */
  #possible: number[] = [];
  #seen: boolean[] = [];

  observe(row: readonly string[]): void {
    for (let column = 0; column < row.length; column += 1) {
      const value = row[column]!;
      if (value === '') continue;
      let possible = this.#possible[column] ?? (1 << PATTERNS.length) - 1;
      for (let bit = 0; bit < PATTERNS.length; bit += 1) {
        if (possible & (1 << bit) && !PATTERNS[bit]![1].test(value)) possible &= ~(1 << bit);
      }
      this.#possible[column] = possible;
      this.#seen[column] = true;
    }
  }

  types(columns: number): TableColumnTypeName[] {
    return Array.from({ length: columns }, (_, column) => {
      if (!this.#seen[column]) return 'varchar';
      const possible = this.#possible[column]!;
      const first = PATTERNS.findIndex((_, bit) => possible & (1 << bit));
      return first < 0 ? 'varchar' : PATTERNS[first]![0];
    });
  }
}
