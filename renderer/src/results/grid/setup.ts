import {
  BigIntFilterModule,
  CellApiModule,
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  colorSchemeDark,
  colorSchemeLight,
  createGrid,
  DateFilterModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  NumberFilterModule,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  ScrollApiModule,
  TextFilterModule,
  themeQuartz,
  TooltipModule,
  type GridApi,
  type GridOptions,
} from 'ag-grid-community';
import { GRID_BLOCK_ROWS } from '../../../../main/common/page-reads.ts';

// AG Grid ships as modules since v33: register only what the result grids use (the whole result
// in the Infinite Row Model, samples in the Client-Side one). The *Api modules back the calls
// copy.ts, the width fitting, the redraw when the number style changes and the block of cells make.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  ClientSideRowModelModule,
  CellStyleModule,
  TooltipModule,
  ColumnApiModule,
  CellApiModule,
  RenderApiModule,
  RowApiModule,
  TextFilterModule,
  NumberFilterModule,
  BigIntFilterModule,
  DateFilterModule,
  RowSelectionModule,
  ScrollApiModule,
]);

/** Dense, calm, and in the app's own palette (see app.css). */
const base = themeQuartz.withParams({
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontSize: 12.5,
  headerFontSize: 12,
  headerFontWeight: 600,
  spacing: 5,
  rowHeight: 26,
  headerHeight: 40,
  wrapperBorder: false,
  wrapperBorderRadius: 0,
  columnBorder: true,
  cellHorizontalPaddingScale: 0.9,
});

export const lightTheme = base.withPart(colorSchemeLight).withParams({
  backgroundColor: '#ffffff',
  foregroundColor: '#1f2328',
  headerBackgroundColor: '#f6f7f9',
  borderColor: '#e3e5e8',
  accentColor: '#2f6fde',
  oddRowBackgroundColor: '#fafbfc',
});

export const darkTheme = base.withPart(colorSchemeDark).withParams({
  backgroundColor: '#1b1c1f',
  foregroundColor: '#d9dce1',
  headerBackgroundColor: '#232428',
  borderColor: '#2f3136',
  accentColor: '#5b93f0',
  oddRowBackgroundColor: '#1f2023',
});

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

/** Rows selected by click (Ctrl/Cmd to add, Shift for a range), for copying. */
export const ROW_SELECTION: GridOptions['rowSelection'] = {
  mode: 'multiRow',
  checkboxes: false,
  headerCheckbox: false,
  enableClickSelection: true,
};

/** A grid in the app's theme that follows the OS's light or dark scheme; `destroy` undoes both. */
export function createThemedGrid<T>(container: HTMLElement, options: GridOptions<T>): { api: GridApi<T>; destroy: () => void } {
  const api = createGrid<T>(container, { ...options, theme: darkQuery.matches ? darkTheme : lightTheme });
  const follow = () => api.setGridOption('theme', darkQuery.matches ? darkTheme : lightTheme);
  darkQuery.addEventListener('change', follow);
  return {
    api,
    destroy: () => {
      darkQuery.removeEventListener('change', follow);
      api.destroy();
    },
  };
}

/** A whole result, read from the service in blocks of rows as the grid scrolls. */
export const INFINITE_ROWS = {
  rowModelType: 'infinite',
  cacheBlockSize: GRID_BLOCK_ROWS,
  maxBlocksInCache: 100,
  maxConcurrentDatasourceRequests: 2,
  blockLoadDebounceMillis: 60,
  animateRows: false,
  tooltipShowDelay: 400,
  overlayNoRowsTemplate: '<span class="qd-grid-empty">No rows to show.</span>',
} as const satisfies GridOptions;
