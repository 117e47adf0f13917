// The `filters`, `sort_by` and `columns` options a JSON or CSV result request can carry.

export interface ResultView {
  filters?: string;
  sortBy?: string;
  columns?: string;
}

/** The view's options as query parameters; absent ones are left out. */
export function viewQuery(view: ResultView | undefined): Record<string, string | undefined> {
  return { filters: view?.filters, sort_by: view?.sortBy, columns: view?.columns };
}
