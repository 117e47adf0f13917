import { Decoration, MatchDecorator, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from '@codemirror/view';
import { PLACEHOLDER } from '../../../main/common/parameters.ts';

// `{{name}}` is the service's parameter syntax: shown as a parameter, not as SQL braces.
const matcher = new MatchDecorator({
  // its own copy: the decorator moves the pattern's lastIndex as it scans
  regexp: new RegExp(PLACEHOLDER),
  decoration: Decoration.mark({ class: 'cm-param' }),
});

export const placeholderMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = matcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = matcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
