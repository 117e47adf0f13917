import type { IHeaderParams, IInnerHeaderComponent } from 'ag-grid-community';

type Params = IHeaderParams & { type?: string; decimals?: () => number };

/**
 * The column name with its type beneath, inside the grid's own header (sorting, resizing stay
 * its); a column scaled by its decimals says so after its name (`amount ÷1e18`).
 */
export class TypedHeader implements IInnerHeaderComponent {
  #root = document.createElement('span');
  #name = document.createElement('span');
  #type = document.createElement('span');

  init(params: Params): void {
    this.#root.className = 'qd-header';
    this.#name.className = 'qd-header-name';
    this.#type.className = 'qd-header-type';
    this.#root.append(this.#name, this.#type);
    this.refresh(params);
  }

  getGui(): HTMLElement {
    return this.#root;
  }

  refresh(params: Params): boolean {
    const decimals = params.decimals?.() ?? 0;
    this.#name.textContent = decimals > 0 ? `${params.displayName} ÷1e${decimals}` : params.displayName;
    this.#type.textContent = params.type ?? '';
    return true;
  }
}
