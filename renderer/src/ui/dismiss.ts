// What closes a popup (a menu, a list under a button) while it is open: a press outside it, or
// Escape, which also gives the focus back to what opened it.

/** Listens while the popup is open; call the answer to stop (an `$effect`'s cleanup). */
export function whileOpen(root: HTMLElement, close: (how: 'outside' | 'escape') => void): () => void {
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
  };
}
