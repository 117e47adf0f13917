import { StateEffect, StateField, type EditorState, type Extension } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

/** Where a run failed, as the service reports it: 1-based line, and column when known. */
export interface ErrorAt {
  line: number;
  column?: number;
  message: string;
}

export const setErrorAt = StateEffect.define<ErrorAt | null>();

/** The line, and from the column the rest of the word, as positions in this document; null when out of range. */
function range(state: EditorState, at: ErrorAt): { line: { from: number }; from: number; to: number } | null {
  if (at.line < 1 || at.line > state.doc.lines) return null;
  const line = state.doc.line(at.line);
  if (at.column === undefined) return { line, from: line.from, to: line.from };
  const from = Math.min(line.to, line.from + Math.max(0, at.column - 1));
  const word = /^[\w$]+/.exec(line.text.slice(from - line.from));
  const to = Math.min(line.to, from + Math.max(1, word?.[0].length ?? 1));
  return { line, from, to };
}

function decorations(state: EditorState, at: ErrorAt | null): DecorationSet {
  const place = at && range(state, at);
  if (!at || !place) return Decoration.none;
  const marks = [Decoration.line({ class: 'cm-error-line', attributes: { title: at.message } }).range(place.line.from)];
  if (place.to > place.from) marks.push(Decoration.mark({ class: 'cm-error-at' }).range(place.from, place.to));
  return Decoration.set(marks, true);
}

const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setErrorAt)) next = decorations(transaction.state, effect.value);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export const errorMarks: Extension = errorField;

/** The position to put the cursor on to show the error, if it is inside the document. */
export function errorPosition(state: EditorState, at: ErrorAt): number | null {
  return range(state, at)?.from ?? null;
}
