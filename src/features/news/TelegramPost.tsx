import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import classes from './NewsPage.module.css';
import { createWidgetScript, WIDGET_TIMEOUT_MS } from './telegram';
import { TelegramFallback } from './TelegramFallback';

/**
 * `link`: the link card shows (the server's HTML, and while the widget loads); `embedded`: the
 * widget has drawn the post; `failed`: the widget could not load, the link card stays.
 */
type WidgetState = 'link' | 'embedded' | 'failed';

interface TelegramPostProps {
  post: string;
  /** Called once when the widget cannot load and the link card stays instead. */
  onFallback?: () => void;
}

/**
 * One news post. The server's HTML (and a page without JavaScript) has its link card to the post
 * on t.me; once the app runs, Telegram's widget loads into a box of no height beside it, and
 * takes the card's place only when it has drawn the post and sized its frame (its first `resize`
 * sets the frame's height), so the page never shows an empty frame or jumps while it loads.
 * The script is removed with everything it created when the post unmounts or the theme
 * changes, so leaving /news and coming back starts clean. Where the script cannot load, the
 * card stays.
 */
export function TelegramPost({ post, onFallback }: TelegramPostProps) {
  const dark = useComputedColorScheme('light') === 'dark';
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<WidgetState>('link');
  const reportFallback = useEffectEvent(() => onFallback?.());

  useEffect(() => {
    const container = box.current;
    if (!container) return;
    setState('link');
    const script = createWidgetScript(post, dark);
    let settled = false;
    const sized = new MutationObserver(() => {
      if (!container.querySelector('iframe')?.style.height) return;
      sized.disconnect();
      setState('embedded');
    });
    sized.observe(container, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['style'],
    });
    const fail = () => {
      if (settled) return;
      settled = true;
      sized.disconnect();
      container.replaceChildren();
      setState('failed');
      reportFallback();
    };
    const timer = window.setTimeout(fail, WIDGET_TIMEOUT_MS);
    script.addEventListener('error', fail);
    script.addEventListener('load', () => {
      if (settled) return;
      settled = true;
      window.clearTimeout(timer);
    });
    container.append(script);
    return () => {
      settled = true;
      window.clearTimeout(timer);
      sized.disconnect();
      // The script inserts its iframe beside itself, inside this box: clearing the box removes both.
      container.replaceChildren();
    };
  }, [post, dark]);

  return (
    <article aria-label={`Пост ${post}`}>
      {state !== 'embedded' && <TelegramFallback post={post} />}
      <div
        ref={box}
        className={state === 'embedded' ? undefined : classes.widgetLoading}
        hidden={state === 'failed'}
      />
    </article>
  );
}
