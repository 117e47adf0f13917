import type { IHeaderParams, IInnerHeaderComponent } from 'ag-grid-community';

type Params = IHeaderParams & { type?: string };

/** The column name with its type beneath, inside the grid's own header (sorting, resizing stay its). */
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
    this.#name.textContent = params.displayName;
    this.#type.textContent = params.type ?? '';
    return true;
  }
}
