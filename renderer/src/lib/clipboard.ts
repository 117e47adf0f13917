/**
 * Puts text on the system clipboard. Answers why it could not, in the user's words, or null: a
 * copy that did not happen is said, never passed over (the browser refuses one while the page
 * lacks the focus or the permission).
 */
export async function writeClipboard(text: string): Promise<string | null> {
  try {
    await navigator.clipboard.writeText(text);
    return null;
  } catch (error) {
    const why = error instanceof Error && error.message ? `: ${error.message.replace(/\.$/, '')}` : '';
    return `Nothing was copied: the system clipboard refused the text${why}. Click the window and copy again.`;
  }
}
