import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORERS, explorerUrl, hasChainColumn, onchainKind, rowChain } from '../../../main/common/explorers/index.ts';
import { externalUrl } from '../../../main/common/external-url.ts';
import { AppSettings, Explorers } from '../../../main/contract/index.ts';

const VITALIK = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const TX = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const SOL_ACCOUNT = 'So11111111111111111111111111111111111111112';
const SOL_SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

describe('what a block explorer shows', () => {
  it('takes a 20-byte value for an address and a 32-byte one for a transaction, in any case', () => {
    expect(onchainKind(VITALIK, 'ethereum', 'from')).toBe('address');
    expect(onchainKind(VITALIK.toUpperCase().replace('0X', '0x'), 'base', 'to')).toBe('address');
    expect(onchainKind(TX, 'arbitrum', 'hash')).toBe('transaction');
    // a selector, calldata, or a value a byte short is neither
    expect(onchainKind('0xa9059cbb', 'ethereum', 'data')).toBeNull();
    expect(onchainKind(VITALIK.slice(0, -2), 'ethereum', 'from')).toBeNull();
    expect(onchainKind(`${TX}00`, 'ethereum', 'data')).toBeNull();
  });

  it("reads Solana's base58 accounts and signatures, and no hex there", () => {
    expect(onchainKind(SOL_ACCOUNT, 'solana', 'mint')).toBe('address');
    expect(onchainKind(SOL_SIGNATURE, 'solana', 'tx_id')).toBe('transaction');
    expect(onchainKind(VITALIK, 'solana', 'from')).toBeNull();
    // 0, O, I and l are not base58 digits
    expect(onchainKind(`0${SOL_ACCOUNT.slice(1)}`, 'solana', 'mint')).toBeNull();
    expect(onchainKind(SOL_ACCOUNT, 'ethereum', 'mint')).toBeNull();
  });

  it('links a whole number in a block column to its block', () => {
    expect(onchainKind('19000000', 'ethereum', 'block_number')).toBe('block');
    expect(onchainKind('250000000', 'solana', 'block_slot')).toBe('block');
    expect(onchainKind('19000000', 'ethereum', 'amount')).toBeNull();
    expect(onchainKind('-3', 'ethereum', 'block_number')).toBeNull();
  });

  it("takes the row's chain from its blockchain or chain column, else none", () => {
    expect(rowChain(['hash', 'blockchain'], [TX, ' Base '])).toBe('base');
    expect(rowChain(['Chain', 'x'], ['optimism', 1])).toBe('optimism');
    expect(rowChain(['hash', 'blockchain'], [TX, null])).toBeNull();
    expect(rowChain(['hash'], [TX])).toBeNull();
    expect(hasChainColumn(['a', 'BLOCKCHAIN'])).toBe(true);
    expect(hasChainColumn(['chain_id'])).toBe(false);
  });

  it("puts the value in the chain's templates", () => {
    expect(explorerUrl(DEFAULT_EXPLORERS.ethereum!, 'address', VITALIK)).toBe(`https://etherscan.io/address/${VITALIK}`);
    expect(explorerUrl(DEFAULT_EXPLORERS.optimism!, 'transaction', TX)).toBe(`https://optimistic.etherscan.io/tx/${TX}`);
    expect(explorerUrl(DEFAULT_EXPLORERS.solana!, 'address', SOL_ACCOUNT)).toBe(`https://solscan.io/account/${SOL_ACCOUNT}`);
    expect(explorerUrl(DEFAULT_EXPLORERS.zksync!, 'block', '42')).toBe('https://era.zksync.network/block/42');
    expect(explorerUrl({ ...DEFAULT_EXPLORERS.base!, block: '' }, 'block', '42')).toBeNull();
  });

  it('has the main chains Dune covers, each a valid setting', () => {
    expect(Object.keys(DEFAULT_EXPLORERS).sort()).toEqual(
      [
        'arbitrum',
        'avalanche_c',
        'base',
        'blast',
        'bnb',
        'ethereum',
        'gnosis',
        'linea',
        'optimism',
        'polygon',
        'scroll',
        'solana',
        'zksync',
      ].sort(),
    );
    expect(Explorers.safeParse(DEFAULT_EXPLORERS).success).toBe(true);
  });
});

describe('the explorer settings', () => {
  const explorers = AppSettings.shape.explorers;
  it('refuses a template that is not https, lacks {value}, or names a chain oddly, saying why', () => {
    const plain = explorers.safeParse({ ethereum: { address: 'http://etherscan.io/address/{value}', transaction: '', block: '' } });
    expect(plain.error?.issues[0]?.message).toMatch(/must be an https address with \{value\}/);
    expect(plain.error?.issues[0]?.path).toEqual(['ethereum', 'address']);
    expect(explorers.safeParse({ ethereum: { address: 'https://etherscan.io/address/', transaction: '', block: '' } }).success).toBe(false);
    const oddName = explorers.safeParse({ 'Ethereum Main': { address: '', transaction: '', block: '' } }).error?.issues[0];
    expect(oddName?.path).toEqual(['Ethereum Main']);
    expect(JSON.stringify(oddName)).toMatch(/lower-case letters/);
    expect(explorers.safeParse({ mychain: { address: 'https://scan.example/a/{value}', transaction: '', block: '' } }).success).toBe(true);
  });
});

describe('the links handed to the browser', () => {
  it('are https only, without credentials', () => {
    expect(externalUrl('https://etherscan.io/tx/0x1')).toBe('https://etherscan.io/tx/0x1');
    expect(externalUrl('http://etherscan.io/')).toBeNull();
    expect(externalUrl('javascript:alert(1)')).toBeNull();
    expect(externalUrl('https://user:pw@etherscan.io/')).toBeNull();
    expect(externalUrl('not a url')).toBeNull();
  });
});
