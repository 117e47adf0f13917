// Block explorers: which values they show, on which chain, at which address. Pure, shared by
// the contract (the Settings' defaults and checks) and the renderer (the cell's link).
export { BASE58_CHAINS, DEFAULT_EXPLORERS, FIRST_CHAIN, type ExplorerTemplates } from './chains.ts';
export { chainColumn, explorerUrl, hasChainColumn, onchainKind, rowChain, type OnchainKind } from './links.ts';
