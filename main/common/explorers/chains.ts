// The block explorers of the chains Dune covers most, as the Settings start: one link template
// each for an address, a transaction and a block, `{value}` standing for the value linked.

export interface ExplorerTemplates {
  address: string;
  transaction: string;
  block: string;
}

/** The chain a value is looked up on when its row names none: Dune's first and largest. */
export const FIRST_CHAIN = 'ethereum';

/** Values on these chains are base58 text (Solana's accounts and signatures), not 0x hex. */
export const BASE58_CHAINS: ReadonlySet<string> = new Set(['solana']);

function scan(site: string, account = 'address'): ExplorerTemplates {
  return {
    address: `https://${site}/${account}/{value}`,
    transaction: `https://${site}/tx/{value}`,
    block: `https://${site}/block/{value}`,
  };
}

export const DEFAULT_EXPLORERS: Readonly<Record<string, ExplorerTemplates>> = {
  ethereum: scan('etherscan.io'),
  arbitrum: scan('arbiscan.io'),
  optimism: scan('optimistic.etherscan.io'),
  base: scan('basescan.org'),
  polygon: scan('polygonscan.com'),
  bnb: scan('bscscan.com'),
  avalanche_c: scan('snowtrace.io'),
  gnosis: scan('gnosisscan.io'),
  zksync: scan('era.zksync.network'),
  scroll: scan('scrollscan.com'),
  linea: scan('lineascan.build'),
  blast: scan('blastscan.io'),
  solana: scan('solscan.io', 'account'),
};
