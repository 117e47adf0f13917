import { BASE58_CHAINS, type ExplorerTemplates } from './chains.ts';

// Which cell values a block explorer can show, and the link to it. On the EVM chains a 20-byte
// value is an address and a 32-byte one a transaction hash (as Dune's varbinary columns hold
// them, or as 0x text); on Solana, accounts and transaction signatures are base58 text. A block
// is a whole number in a column named for blocks.

export type OnchainKind = 'address' | 'transaction' | 'block';

const ADDRESS_HEX = /^0x[0-9a-fA-F]{40}$/;
const HASH_HEX = /^0x[0-9a-fA-F]{64}$/;
// Bitcoin's alphabet: no 0, O, I or l. A 32-byte key writes as 32 to 44 of its digits, a 64-byte signature as 64 to 88.
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BLOCK_COLUMN = /^(block_number|block_height|block_slot|block|slot)$/i;
const WHOLE = /^\d+$/;
/** The columns a row names its chain in, as Dune's tables call them. */
const CHAIN_COLUMN = /^(blockchain|chain)$/i;

/** What the value is on `chain`, from its text (0x hex for bytes); null when no explorer shows it. */
export function onchainKind(text: string, chain: string, columnName: string): OnchainKind | null {
  if (BLOCK_COLUMN.test(columnName) && WHOLE.test(text)) return 'block';
  if (BASE58_CHAINS.has(chain)) {
    if (!BASE58.test(text)) return null;
    if (text.length >= 32 && text.length <= 44) return 'address';
    return text.length >= 64 && text.length <= 88 ? 'transaction' : null;
  }
  if (ADDRESS_HEX.test(text)) return 'address';
  return HASH_HEX.test(text) ? 'transaction' : null;
}

/** The position of the column a row names its chain in (the first `blockchain` or `chain`); -1 when none. */
export function chainColumn(columnNames: readonly string[]): number {
  return columnNames.findIndex((name) => CHAIN_COLUMN.test(name));
}

/** The chain a row names in its `blockchain` or `chain` column (the first one), lower case; null when none. */
export function rowChain(columnNames: readonly string[], row: readonly unknown[]): string | null {
  const at = chainColumn(columnNames);
  const value = at < 0 ? undefined : row[at];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null;
}

/** Whether any of the columns names a row's chain. */
export function hasChainColumn(columnNames: readonly string[]): boolean {
  return chainColumn(columnNames) >= 0;
}

/** The template with the value put in; null when the template is empty (that chain's explorer has no such page). */
export function explorerUrl(templates: ExplorerTemplates, kind: OnchainKind, text: string): string | null {
  const template = templates[kind];
  return template === '' ? null : template.replaceAll('{value}', encodeURIComponent(text));
}
