// What closes a popup (a menu, a list under a button) while it is open: a press outside it, or
// Escape. Once closed, the focus goes back to where it was if it was lost with the popup.
import { rememberFocus } from './focus-return.ts';

/** Listens while the popup is open; call the answer to stop (an `$effect`'s cleanup). Call it before the popup takes the focus. */
export function whileOpen(root: HTMLElement, close: (how: 'outside' | 'escape') => void): () => void {
  const back = rememberFocus();
  const outside = (event: PointerEvent) => {
    if (!root.contains(event.target as Node)) close('outside');
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // the popup's Escape only: nothing behind it (a run to cancel) hears it
    event.stopPropagation();
    close('escape');
  };
  window.addEventListener('pointerdown', outside, true);
  window.addEventListener('keydown', escape, true);
  return () => {
    window.removeEventListener('pointerdown', outside, true);
    window.removeEventListener('keydown', escape, true);
    back(root);
  };
}
