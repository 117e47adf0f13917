import {
  CellStyleModule,
  colorSchemeDark,
  colorSchemeLight,
  InfiniteRowModelModule,
  ModuleRegistry,
  themeQuartz,
  TooltipModule,
} from 'ag-grid-community';

// AG Grid ships as modules since v33: register only what the result grid uses.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  CellStyleModule,
  TooltipModule,
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
