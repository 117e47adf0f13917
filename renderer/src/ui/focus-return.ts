// Where the focus goes back to when a menu, popover or dialog closes. The browser leaves it on
// <body> when the focused element is removed (a menu item, the row an action archived, the popover
// whose button opened a dialog), and from <body> the keyboard starts over at the top of the page.
// So the element focused before the popup opened is kept with the containers around it as they
// were then (once removed, an element no longer knows where it stood in the page), and the focus
// goes back to the first of them still in the page.

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), summary, [contenteditable="true"]';

/** The last element focused in the page, with its ancestors then, nearest first. */
let lastPath: Element[] = [];
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof Element) lastPath = pathOf(event.target);
  });
}

function pathOf(element: Element): Element[] {
  const path: Element[] = [];
  for (let at: Element | null = element; at && at !== document.body; at = at.parentElement) path.push(at);
  return path;
}

function shown(element: Element): boolean {
  return element instanceof HTMLElement && element.getClientRects().length > 0 && !element.closest('[inert]');
}

/**
 * True when no element of the page holds the focus, or it sits in the given one (a closing popup),
 * or the action hid it (the browser moves the focus from a hidden element to <body> only at its
 * next rendering).
 */
function focusLost(inside?: Element): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || !shown(active) || (inside?.contains(active) ?? false);
}

/** The place the focus can go back to: the element itself, else the first focusable one in a container around it. */
function landing(path: Element[]): HTMLElement | null {
  for (const element of path) {
    if (!element.isConnected || !shown(element)) continue;
    if (element.matches(FOCUSABLE) || (element as HTMLElement).tabIndex >= 0) return element as HTMLElement;
    if (element === path[0] && element.hasAttribute('tabindex')) return element as HTMLElement;
    const inner = [...element.querySelectorAll(FOCUSABLE)].find(shown);
    if (inner) return inner as HTMLElement;
  }
  return null;
}

/**
 * Remembers where the focus is as a popup opens; the answer puts it back there, or as near as
 * the page still allows, if the focus is lost then (the popup's own part, when given, counts as
 * lost) and again once the action chosen has run and the page has updated. An action that moved
 * the focus somewhere (a dialog it opened, an editor) keeps it there.
 */
export function rememberFocus(): (popup?: Element) => void {
  const active = document.activeElement;
  const path = active && active !== document.body ? pathOf(active) : lastPath;
  const restore = (popup?: Element) => {
    if (focusLost(popup)) landing(path)?.focus();
  };
  return (popup) => {
    restore(popup);
    setTimeout(() => restore(), 0);
  };
}
