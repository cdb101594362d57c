import { Skeleton, useComputedColorScheme } from '@mantine/core';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { createWidgetScript, WIDGET_TIMEOUT_MS } from './telegram';
import { TelegramFallback } from './TelegramFallback';

type WidgetState = 'loading' | 'loaded' | 'failed';

interface TelegramPostProps {
  post: string;
  /** Called once when the widget cannot load and the link card is shown instead. */
  onFallback?: () => void;
}

/**
 * One news post as Telegram's widget. The script is added to this post's own box and removed
 * with everything it created when the post unmounts or the theme changes, so leaving /news and
 * coming back starts clean. Where the script cannot load, a link card takes its place.
 */
export function TelegramPost({ post, onFallback }: TelegramPostProps) {
  const dark = useComputedColorScheme('light') === 'dark';
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<WidgetState>('loading');
  const reportFallback = useEffectEvent(() => onFallback?.());

  useEffect(() => {
    const container = box.current;
    if (!container) return;
    const script = createWidgetScript(post, dark);
    let settled = false;
    const fail = () => {
      if (settled) return;
      settled = true;
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
      setState('loaded');
    });
    container.append(script);
    return () => {
      settled = true;
      window.clearTimeout(timer);
      // The script inserts its iframe beside itself, inside this box: clearing the box removes both.
      container.replaceChildren();
    };
  }, [post, dark]);

  return (
    <article aria-label={`Пост ${post}`}>
      {state === 'failed' && <TelegramFallback post={post} />}
      {state === 'loading' && <Skeleton height={160} radius="md" aria-hidden />}
      <div ref={box} hidden={state === 'failed'} />
    </article>
  );
}
