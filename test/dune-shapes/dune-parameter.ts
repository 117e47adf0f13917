// A parameter as Dune's query records carry it, with every documented field (notes §7.2): an
// enum whose options come from a column of another query's result. Saving a query's parameters
// sends the whole list and Dune keeps only what is sent, so each of these must come back.

export const FED_ENUM = {
  key: 'chain',
  type: 'enum',
  value: 'ethereum',
  description: 'The chain',
  enumOptions: ['ethereum', 'base'],
  isMultiselect: false,
  isFreeformAllowed: true,
  enumFromResults: { queryId: 4242, columnName: 'blockchain' },
  values: ['ethereum'],
};
