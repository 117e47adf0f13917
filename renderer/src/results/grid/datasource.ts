import type { IDatasource } from 'ag-grid-community';
import type { ContractError, ResultPage } from '$contract/index.ts';
import { resultIds, type ResultSource } from '../result-source.ts';
import { columnId } from './columns.ts';
import type { FailedRows } from './row-placeholder.ts';
import { filtersParam, sortByParam, type ViewColumn } from './view-language.ts';

export interface ViewRequest {
  /** The typed filter, joined with the grid's column filters. */
  filters: (gridFilters: string) => string;
  columns: string | undefined;
}

/**
 * Each block the grid asks for becomes one `results:getRows` call, with the grid's sort and
 * column filters written in the service's language next to the typed filter and chosen columns.
 */
export function resultDatasource(options: {
  source: ResultSource;
  /** Rows before the first page of this view answers. */
  rowCount: number;
  allowPartial: boolean;
  columns: ViewColumn[];
  view: ViewRequest;
  /** The sort and column filters as sent, so exports and charts can describe the same view. */
  onView: (sortBy: string, gridFilters: string) => void;
  onPage: (page: ResultPage) => void;
  onError: (error: ContractError) => void;
  /** The blocks that failed, for their rows to say so until asked for again. */
  failedRows: FailedRows;
}): IDatasource {
  const { source, allowPartial, view, onView, onPage, onError, failedRows } = options;
  const byId = new Map(options.columns.map((c) => [columnId(c.index), c]));
  return {
    rowCount: options.rowCount,
    getRows(params) {
      const sortBy = sortByParam(params.sortModel, byId);
      const gridFilters = filtersParam(params.filterModel, byId);
      onView(sortBy, gridFilters);
      failedRows.asked(params.startRow);
      const filters = view.filters(gridFilters);
      const request = {
        ...resultIds(source),
        startRow: params.startRow,
        endRow: params.endRow,
        allowPartial,
        ...(filters ? { filters } : {}),
        ...(sortBy ? { sortBy } : {}),
        ...(view.columns ? { columns: view.columns } : {}),
      };
      void source.api.invoke('results:getRows', request).then((answer) => {
        if (answer.ok) {
          params.successCallback(answer.data.rows, answer.data.totalRowCount);
          onPage(answer.data);
        } else {
          failedRows.failed(params.startRow, params.endRow);
          onError(answer.error);
          params.failCallback();
          params.api.refreshCells({ force: true });
        }
      });
    },
  };
}
