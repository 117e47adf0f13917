import type { GridApi } from 'ag-grid-community';
import { untrack } from 'svelte';
import type { NumberStyle } from './cell-format.ts';

/** How every grid writes numbers: the app's setting, set when the settings load or change. */
export const numberStyle: NumberStyle = $state({ grouping: false });

/** Writes a grid's cells again when the style changes; called while a grid component starts. */
export function redrawOnStyleChange(grid: () => GridApi | null): void {
  $effect(() => {
    void numberStyle.grouping;
    untrack(() => grid()?.refreshCells({ force: true }));
  });
}
