import { ColumnTyping, type CsvColumnType } from '../../../main/common/csv-column-types.ts';

// The type of each column, from every value of the file, by the rule the service types an
// uploaded file's columns with (main/common/csv-column-types.ts): the types shown are the table's,
// and the schema of a table made in parts. The reader gives an empty field as '', quoted or not;
// it is taken for no value, as the service takes an unquoted one.

export class TypeInference {
  #columns: ColumnTyping[] = [];

  observe(row: readonly string[]): void {
    for (let column = 0; column < row.length; column += 1) {
      const value = row[column]!;
      (this.#columns[column] ??= new ColumnTyping()).add(value === '' ? null : value);
    }
  }

  types(columns: number): CsvColumnType[] {
    return Array.from({ length: columns }, (_, column) => this.#columns[column]?.type ?? 'varchar');
  }
}
