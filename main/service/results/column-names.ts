// A result's columns become the columns of its stored table, where DuckDB compares names without
// case: `c`, `c` and `C` would collide. Later ones get the first free `_<n>` suffix, as DuckDB
// itself renames a repeated name.

export function uniqueColumnNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 1; taken.has(unique.toLowerCase()); n++) unique = `${name}_${n}`;
    taken.add(unique.toLowerCase());
    return unique;
  });
}
