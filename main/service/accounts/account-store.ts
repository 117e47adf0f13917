import type { Database } from '../storage/duckdb.ts';
import { nowIso } from '../time.ts';
import { hashApiKey } from './key-hash.ts';

export const PLANS = ['free', 'plus', 'premium'] as const;
export type Plan = (typeof PLANS)[number];
export type AccountKind = 'user' | 'team';

/**
 * A tenant of the service: a user or a team (a "context" in Dune's words) with its plan. Not the
 * app's Account (main/contract/models.ts), which is a service the app connects to.
 */
export interface ServiceAccount {
  id: number;
  handle: string;
  kind: AccountKind;
  plan: Plan;
}

interface AccountRow {
  id: number;
  handle: string;
  kind: string;
  plan: string;
  [column: string]: unknown;
}

function toAccount(row: AccountRow): ServiceAccount {
  return { id: row.id, handle: row.handle, kind: row.kind as AccountKind, plan: row.plan as Plan };
}

export class AccountStore {
  #db: Database;
  // Every request is authenticated, and accounts change only at start: a key that was found
  // is answered from memory. A key not found is asked again (and not kept, whatever it is).
  #byKey = new Map<string, ServiceAccount>();

  constructor(db: Database) {
    this.#db = db;
  }

  async byApiKey(apiKey: string): Promise<ServiceAccount | null> {
    const known = this.#byKey.get(apiKey);
    if (known) return { ...known };
    const rows = await this.#db.rows<AccountRow>(
      `SELECT a.id, a.handle, a.kind, a.plan FROM api_key_hashes k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = ?`,
      [hashApiKey(apiKey)],
    );
    if (!rows[0]) return null;
    const account = toAccount(rows[0]);
    this.#byKey.set(apiKey, account);
    return { ...account };
  }

  async byHandle(handle: string): Promise<ServiceAccount | null> {
    const rows = await this.#db.rows<AccountRow>(`SELECT id, handle, kind, plan FROM accounts WHERE handle = ?`, [handle]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async count(): Promise<number> {
    const rows = await this.#db.rows<{ n: bigint }>(`SELECT count(*) AS n FROM accounts`);
    return Number(rows[0]?.n ?? 0);
  }

  /** Creates the account, or updates kind and plan of the one with that handle. */
  async upsert(handle: string, kind: AccountKind, plan: Plan): Promise<ServiceAccount> {
    const rows = await this.#db.rows<AccountRow>(
      `INSERT INTO accounts (handle, kind, plan, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (handle) DO UPDATE SET kind = excluded.kind, plan = excluded.plan
       RETURNING id, handle, kind, plan`,
      [handle, kind, plan, nowIso()],
    );
    this.#byKey.clear();
    return toAccount(rows[0]!);
  }

  /**
   * Makes these keys the account's only ones: the keys it had before and not here are refused from
   * now on; a key another account held moves to this one.
   */
  async replaceApiKeys(accountId: number, ...apiKeys: string[]): Promise<void> {
    const kept = new Set(apiKeys.map(hashApiKey));
    await this.#db.transaction(async (connection) => {
      // the kept inserted first and only the others deleted: a key the account keeps keeps its row
      for (const hash of kept) {
        await connection.run(
          `INSERT INTO api_key_hashes (key_hash, account_id, created_at) VALUES (?, ?, ?)
           ON CONFLICT (key_hash) DO UPDATE SET account_id = excluded.account_id`,
          [hash, accountId, nowIso()],
        );
      }
      const held = await connection.runAndReadAll(`SELECT key_hash FROM api_key_hashes WHERE account_id = ?`, [accountId]);
      for (const { key_hash } of held.getRowObjectsJS() as { key_hash: string }[]) {
        if (!kept.has(key_hash)) await connection.run(`DELETE FROM api_key_hashes WHERE key_hash = ?`, [key_hash]);
      }
    });
    this.#byKey.clear();
  }

  async setMembers(teamId: number, userIds: number[]): Promise<void> {
    await this.#db.transaction(async (connection) => {
      await connection.run(`DELETE FROM team_members WHERE team_id = ?`, [teamId]);
      for (const userId of userIds) {
        await connection.run(`INSERT INTO team_members (team_id, user_id) VALUES (?, ?)`, [teamId, userId]);
      }
    });
  }
}
