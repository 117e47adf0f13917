// Dune's tables that analysts use most, as the embedded service keeps a small sample of them
// (`<schema>.<table>`, Dune's column names and DuneSQL types), and well-known ones it does not keep.
// The service makes its sample tables by this list; the editor completes their names and columns.
// Pure: no Node, no DOM, no DuckDB.

export interface SampleColumn {
  name: string;
  /** The DuneSQL type, as Dune names it in `column_types`. */
  type: string;
}

export interface SampleTable {
  schema: string;
  name: string;
  columns: SampleColumn[];
}

const TIME = 'timestamp(3) with time zone';
const cols = (spec: string): SampleColumn[] =>
  spec
    .trim()
    .split('\n')
    .map((line) => {
      const [name, ...type] = line.trim().split(' ');
      return { name: name!, type: type.join(' ').replace('TIME', TIME) };
    });

export const SAMPLE_TABLES: SampleTable[] = [
  {
    schema: 'ethereum',
    name: 'blocks',
    columns: cols(`
      time TIME
      number bigint
      gas_limit decimal(38,0)
      gas_used decimal(38,0)
      miner varbinary
      hash varbinary
      parent_hash varbinary
      size bigint
      nonce varbinary
      base_fee_per_gas bigint
      difficulty decimal(38,0)
      total_difficulty decimal(38,0)
      blob_gas_used bigint
      excess_blob_gas bigint
      parent_beacon_block_root varbinary
      date date`),
  },
  {
    schema: 'ethereum',
    name: 'transactions',
    columns: cols(`
      block_time TIME
      block_number bigint
      value uint256
      gas_limit bigint
      gas_price bigint
      gas_used bigint
      max_fee_per_gas bigint
      max_priority_fee_per_gas bigint
      priority_fee_per_gas bigint
      nonce bigint
      index bigint
      success boolean
      from varbinary
      to varbinary
      block_hash varbinary
      data varbinary
      hash varbinary
      type varchar
      access_list array(row(address varbinary, storageKeys array(varbinary)))
      block_date date`),
  },
  {
    schema: 'erc20_ethereum',
    name: 'evt_Transfer',
    columns: cols(`
      contract_address varbinary
      evt_tx_hash varbinary
      evt_tx_from varbinary
      evt_tx_to varbinary
      evt_tx_index bigint
      evt_index bigint
      evt_block_time TIME
      evt_block_number bigint
      evt_block_date date
      from varbinary
      to varbinary
      value uint256`),
  },
  {
    schema: 'tokens',
    name: 'erc20',
    columns: cols(`
      blockchain varchar
      contract_address varbinary
      symbol varchar
      decimals integer`),
  },
  {
    schema: 'prices',
    name: 'usd',
    columns: cols(`
      minute TIME
      blockchain varchar
      contract_address varbinary
      decimals integer
      symbol varchar
      price double`),
  },
  {
    schema: 'dex',
    name: 'trades',
    columns: cols(`
      blockchain varchar
      project varchar
      version varchar
      block_month date
      block_date date
      block_time TIME
      block_number bigint
      token_bought_symbol varchar
      token_sold_symbol varchar
      token_pair varchar
      token_bought_amount double
      token_sold_amount double
      token_bought_amount_raw uint256
      token_sold_amount_raw uint256
      amount_usd double
      token_bought_address varbinary
      token_sold_address varbinary
      taker varbinary
      maker varbinary
      project_contract_address varbinary
      tx_hash varbinary
      tx_from varbinary
      tx_to varbinary
      evt_index bigint`),
  },
  {
    schema: 'labels',
    name: 'addresses',
    columns: cols(`
      blockchain varchar
      address varbinary
      name varchar
      category varchar
      contributor varchar
      source varchar
      created_at TIME
      updated_at TIME
      model_name varchar
      label_type varchar`),
  },
];

/** Tables analysts often name that exist on Dune but have no sample offline. */
export const DUNE_ONLY_TABLES = [
  'ethereum.logs',
  'ethereum.traces',
  'ethereum.contracts',
  'ethereum.creation_traces',
  'ethereum.withdrawals',
  'erc20_ethereum.evt_Approval',
  'erc721_ethereum.evt_Transfer',
  'tokens.transfers',
  'tokens.nft',
  'prices.minute',
  'prices.hour',
  'prices.day',
  'prices.latest',
  'prices.usd_latest',
  'prices.usd_daily',
  'dex.prices',
  'dex_aggregator.trades',
  'nft.trades',
  'nft.mints',
  'labels.all',
  'solana.transactions',
  'solana.blocks',
  'arbitrum.transactions',
  'optimism.transactions',
  'base.transactions',
  'polygon.transactions',
  'bnb.transactions',
];
