import type { IDatasource } from 'ag-grid-community';
import type { CellValue, ContractError } from '../../../main/contract/index.ts';
import type { Api } from '../lib/bridge.ts';

/** Each block the grid asks for becomes one `results:getRows` call. */
export function resultDatasource(options: {
  api: Api;
  accountId: string;
  executionId: string;
  totalRowCount: number;
  allowPartial: boolean;
  onRows: (rows: CellValue[][]) => void;
  onError: (error: ContractError) => void;
}): IDatasource {
  const { api, accountId, executionId, totalRowCount, allowPartial, onRows, onError } = options;
  return {
    rowCount: totalRowCount,
    getRows(params) {
      const endRow = Math.min(params.endRow, totalRowCount);
      if (endRow <= params.startRow) {
        params.successCallback([], totalRowCount);
        return;
      }
      void api.invoke('results:getRows', { accountId, executionId, startRow: params.startRow, endRow, allowPartial }).then((answer) => {
        if (answer.ok) {
          params.successCallback(answer.data.rows, answer.data.totalRowCount);
          onRows(answer.data.rows);
        } else {
          onError(answer.error);
          params.failCallback();
        }
      });
    },
  };
}
