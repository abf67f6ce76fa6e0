// Copying a URL (a feed's, a member's private feed) for the user to paste into a podcast app.

/**
 * Copies text: the Clipboard API where the page may use it, else the given input's text (selected)
 * through the older copy command: an http page on a LAN address has no Clipboard API, and a
 * refused one (no permission, page not focused) may still copy that way. False when neither did.
 */
export async function copyText(text: string, input: HTMLInputElement | null = null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused: the older way below may still work.
  }
  if (!input) return false;
  input.select();
  return document.execCommand('copy');
}
