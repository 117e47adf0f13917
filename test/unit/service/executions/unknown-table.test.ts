import { describe, expect, it } from 'vitest';
import { sqlError } from '../../../../main/service/executions/sql-error.ts';

// DuckDB's own messages for an unknown table (as DuckDB 1.5 words them), turned into the hosted
// service's: the name as written, its line and column, and a hint for Dune's tables not offline.

const caretAt = (sql: string, column: number) => `\n\nLINE 1: ${sql}\n${' '.repeat(8 + column - 1)}^`;

describe('an unknown table', () => {
  it("is named as the SQL wrote it, at DuckDB's position, without DuckDB's guess", () => {
    const sql = 'select * from dune.acme.nope';
    expect(
      sqlError(`Catalog Error: Table with name nope does not exist!\nDid you mean "pg_catalog.pg_enum"?${caretAt(sql, 15)}`, sql),
    ).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: "line 1:15: Table 'dune.acme.nope' does not exist",
      line: 1,
      column: 15,
    });
  });

  it("gets a hint when it is one of Dune's tables with no sample offline, however it is quoted", () => {
    for (const [sql, message] of [
      ['select * from ethereum.logs', 'Catalog Error: Table with name logs does not exist!\nDid you mean "transactions"?'],
      ['select * from "Ethereum"."Logs"', 'Catalog Error: Table with name Logs does not exist!\nDid you mean "transactions"?'],
      ['select * from nft.trades', 'Catalog Error: Table with name "nft.trades" does not exist because schema "nft" does not exist.'],
    ] as const) {
      const error = sqlError(`${message}${caretAt(sql, 15)}`, sql);
      expect(error.message, sql).toMatch(
        /^line 1:15: Table '(ethereum\.logs|Ethereum\.Logs|nft\.trades)' does not exist: it is one of Dune's tables, which the embedded service has no sample of \(offline: ethereum\.blocks, ethereum\.transactions, erc20_ethereum\.evt_Transfer, tokens\.erc20, prices\.usd, dex\.trades, labels\.addresses\); run the query on Dune for it$/,
      );
    }
  });

  it("keeps DuckDB's words where it points at a function that reads a table by a name in a string", () => {
    const sql = "select * from query_table('dune.acme.dataset_secret')";
    const message = 'Catalog Error: Table with name dataset_secret does not exist!\nDid you mean "information_schema.character_sets"?';
    expect(sqlError(`${message}${caretAt(sql, 15)}`, sql).message).toBe(`line 1:15: ${message}`);
  });
});
