import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

// Colours are the app's CSS variables (app.css), so the editor follows the OS's light or dark
// scheme the moment it changes, with no reconfiguration.

const chrome = EditorView.theme({
  '&': {
    height: '100%',
    fontSize: '12.5px',
    color: 'var(--fg)',
    backgroundColor: 'var(--code-bg)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': {
    fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace",
    lineHeight: '1.55',
  },
  '.cm-content': { caretColor: 'var(--fg)', padding: '6px 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--syn-selection)',
  },
  '.cm-gutters': {
    backgroundColor: 'var(--code-bg)',
    color: 'var(--muted)',
    border: 'none',
    borderRight: '1px solid var(--border)',
  },
  '.cm-lineNumbers .cm-gutterElement': { padding: '0 8px 0 12px', minWidth: '36px' },
  '.cm-activeLine': { backgroundColor: 'var(--syn-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--syn-active-line)', color: 'var(--fg)' },
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': {
    backgroundColor: 'var(--syn-selection)',
    outline: 'none',
  },
  '.cm-searchMatch': { backgroundColor: 'var(--syn-match)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--border)',
    borderRadius: '5px',
    boxShadow: '0 4px 14px rgb(0 0 0 / 0.14)',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--selected)',
    color: 'var(--fg)',
  },
  '.cm-panels': { backgroundColor: 'var(--bg-bar)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--hover)', border: 'none', color: 'var(--muted)' },
  '.cm-param': {
    color: 'var(--syn-param)',
    backgroundColor: 'var(--syn-param-bg)',
    borderRadius: '3px',
  },
  // a placeholder reads in its own colour on its own background, inside a comment or a string too
  '.cm-param *': { color: 'inherit' },
  '.cm-error-line': { backgroundColor: 'var(--danger-bg)' },
  '.cm-error-at': {
    textDecoration: 'underline wavy var(--danger)',
    textDecorationSkipInk: 'none',
    textUnderlineOffset: '3px',
  },
});

const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: 'var(--syn-keyword)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--syn-number)' },
  { tag: [tags.lineComment, tags.blockComment, tags.comment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.standard(tags.name)], color: 'var(--syn-type)' },
  { tag: [tags.function(tags.variableName), tags.special(tags.name)], color: 'var(--syn-function)' },
  { tag: [tags.operator, tags.punctuation, tags.bracket], color: 'var(--syn-punctuation)' },
]);

export const editorTheme: Extension = [chrome, syntaxHighlighting(highlight)];
