// Telegram's post widget: a script that replaces itself with an iframe of the post.
export const WIDGET_SCRIPT_URL = 'https://telegram.org/js/telegram-widget.js?22';

/**
 * How long the script may take before the link card is shown instead. A blocked script fails
 * at once, but a filtered network can leave it hanging without ever firing `error`.
 */
export const WIDGET_TIMEOUT_MS = 4000;

/** The post's own page on Telegram, e.g. `berries_shop/12` -> https://t.me/berries_shop/12. */
export function postUrl(post: string): string {
  return `https://t.me/${post.split('/').map(encodeURIComponent).join('/')}`;
}

/** `berries_shop/12` -> channel `berries_shop`, number `12` (empty when the post has none). */
export function describePost(post: string): { channel: string; number: string } {
  const [channel = post, number = ''] = post.split('/');
  return { channel, number };
}

/** The widget's <script> for `post`, in the dark variant while the dark theme is on. */
export function createWidgetScript(post: string, dark: boolean): HTMLScriptElement {
  const script = document.createElement('script');
  script.async = true;
  script.src = WIDGET_SCRIPT_URL;
  script.dataset.telegramPost = post;
  script.dataset.width = '100%';
  if (dark) script.dataset.dark = '1';
  return script;
}
