import { useMantineColorScheme } from '@mantine/core';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewsItem } from '../../../src/api/types';
import { preloadPage, Routes } from '../../../src/app/routes';
import {
  createWidgetScript,
  postUrl,
  WIDGET_SCRIPT_URL,
  WIDGET_TIMEOUT_MS,
} from '../../../src/features/news/telegram';
import type * as Telegram from '../../../src/features/news/telegram';
import { TelegramPost } from '../../../src/features/news/TelegramPost';
import { renderAt } from '../render';

const { getNews } = vi.hoisted(() => ({ getNews: vi.fn<() => Promise<NewsItem[]>>() }));
vi.mock('../../../src/api/content', () => ({ getNews }));

// happy-dom must not fetch telegram.org: the widget scripts the component adds are made inert
// (a type browsers do not run), and each test fires their load/error events itself.
vi.mock('../../../src/features/news/telegram', async (importOriginal) => {
  const original = await importOriginal<typeof Telegram>();
  return {
    ...original,
    createWidgetScript: (post: string, dark: boolean) => {
      const script = original.createWidgetScript(post, dark);
      script.type = 'text/x-inert';
      return script;
    },
  };
});

function ThemeSwitch() {
  const { setColorScheme } = useMantineColorScheme();
  return <button onClick={() => setColorScheme('dark')}>dark</button>;
}

const widgetScripts = () => [
  ...document.querySelectorAll<HTMLScriptElement>('script[data-telegram-post]'),
];

beforeEach(() => {
  document.head.innerHTML = '<title></title><meta name="description" content="" />';
});
afterEach(() => {
  vi.useRealTimers();
  getNews.mockReset();
});

// The page comes with its route (it takes its data as props), its code loaded before the test.
beforeAll(() => preloadPage('/news'));
describe('the widget script', () => {
  it('loads Telegram’s widget for the post at 100% width, light by default', () => {
    const script = createWidgetScript('berries_shop/12', false);
    expect(script.src).toBe(WIDGET_SCRIPT_URL);
    expect(WIDGET_SCRIPT_URL).toBe('https://telegram.org/js/telegram-widget.js?22');
    expect(script.async).toBe(true);
    expect(script.getAttribute('data-telegram-post')).toBe('berries_shop/12');
    expect(script.getAttribute('data-width')).toBe('100%');
    expect(script.hasAttribute('data-dark')).toBe(false);
  });

  it('asks for the dark variant in the dark theme', () => {
    expect(createWidgetScript('berries_shop/12', true).getAttribute('data-dark')).toBe('1');
  });

  it('links a post to its page on t.me', () => {
    expect(postUrl('berries_shop/12')).toBe('https://t.me/berries_shop/12');
  });
});

describe('a news post', () => {
  const card = () => screen.queryByRole('link', { name: /Открыть в Telegram/ });

  /** What Telegram's script does once it runs: the post's frame beside it, sized when drawn. */
  function drawWidget(script: HTMLScriptElement, height: string | null) {
    const frame = document.createElement('iframe');
    script.before(frame);
    if (height) frame.style.height = height;
    return frame;
  }

  it('shows the link card to the post at once, and loads the widget in its own box', () => {
    renderAt(<TelegramPost post="berries_shop/12" />);
    expect(card()?.getAttribute('href')).toBe('https://t.me/berries_shop/12');
    const [script] = widgetScripts();
    expect(script?.dataset.telegramPost).toBe('berries_shop/12');
  });

  it('keeps the link card, and drops the script, when the script fails to load', async () => {
    renderAt(<TelegramPost post="berries_shop/12" />);
    act(() => {
      widgetScripts()[0]!.dispatchEvent(new Event('error'));
    });
    const link = await screen.findByRole('link', { name: /Открыть в Telegram/ });
    expect(link.getAttribute('href')).toBe('https://t.me/berries_shop/12');
    expect(screen.getByText(/^Пост №\s12$/)).toBeTruthy();
    expect(screen.getByText('Канал @berries_shop')).toBeTruthy();
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(widgetScripts()).toHaveLength(0);
  });

  it('gives up on a script that neither loads nor fails within the time limit', () => {
    vi.useFakeTimers();
    const onFallback = vi.fn();
    renderAt(<TelegramPost post="berries_shop/7" onFallback={onFallback} />);
    act(() => vi.advanceTimersByTime(WIDGET_TIMEOUT_MS - 100));
    expect(widgetScripts()).toHaveLength(1);
    expect(onFallback).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(200));
    expect(widgetScripts()).toHaveLength(0);
    expect(onFallback).toHaveBeenCalledOnce();
    expect(card()?.getAttribute('href')).toBe('https://t.me/berries_shop/7');
  });

  it('keeps the link card while the loaded widget has not drawn the post yet', async () => {
    vi.useFakeTimers();
    renderAt(<TelegramPost post="berries_shop/7" />);
    const script = widgetScripts()[0]!;
    // The frame's arrival is observed as a mutation, after the current task: awaited here.
    await act(async () => {
      script.dispatchEvent(new Event('load'));
      drawWidget(script, null);
      await vi.advanceTimersByTimeAsync(WIDGET_TIMEOUT_MS * 2);
    });
    expect(card()).not.toBeNull();
    expect(widgetScripts()).toHaveLength(1);
  });

  it('puts the widget in the link card’s place once it has drawn the post', async () => {
    renderAt(<TelegramPost post="berries_shop/7" />);
    const script = widgetScripts()[0]!;
    act(() => {
      script.dispatchEvent(new Event('load'));
    });
    const frame = drawWidget(script, null);
    act(() => {
      frame.style.height = '420px';
    });
    await waitFor(() => expect(card()).toBeNull());
    expect(widgetScripts()).toHaveLength(1);
  });

  it('replaces the light widget, iframe and all, with the dark one when the theme turns dark', async () => {
    renderAt(
      <>
        <ThemeSwitch />
        <TelegramPost post="berries_shop/12" />
      </>,
    );
    const light = widgetScripts()[0]!;
    expect(light.hasAttribute('data-dark')).toBe(false);
    // What Telegram's script does once it runs: put the post's iframe beside itself.
    const iframe = document.createElement('iframe');
    iframe.id = 'telegram-post-berries_shop-12';
    light.before(iframe);
    act(() => light.dispatchEvent(new Event('load')));

    act(() => screen.getByRole('button', { name: 'dark' }).click());

    await waitFor(() => expect(widgetScripts()[0]?.dataset.dark).toBe('1'));
    expect(widgetScripts()).toHaveLength(1);
    expect(document.getElementById('telegram-post-berries_shop-12')).toBeNull();
  });
});

describe('the news page', () => {
  it('has the heading Новости and embeds one widget per news item', async () => {
    getNews.mockResolvedValue([
      { data_telegram_post: 'berries_shop/12' },
      { data_telegram_post: 'berries_shop/9' },
    ]);
    renderAt(<Routes />, '/news');
    expect(screen.getByRole('heading', { name: 'Новости' })).toBeTruthy();
    await waitFor(() =>
      expect(widgetScripts().map((s) => s.dataset.telegramPost)).toEqual([
        'berries_shop/12',
        'berries_shop/9',
      ]),
    );
  });

  it('falls back to a link per post when every widget fails', async () => {
    getNews.mockResolvedValue([
      { data_telegram_post: 'berries_shop/12' },
      { data_telegram_post: 'berries_shop/9' },
    ]);
    renderAt(<Routes />, '/news');
    await waitFor(() => expect(widgetScripts()).toHaveLength(2));
    expect(screen.queryByText(/посты канала показаны ссылками/)).toBeNull();
    act(() => {
      for (const script of widgetScripts()) script.dispatchEvent(new Event('error'));
    });
    const links = await screen.findAllByRole('link', { name: /Открыть в Telegram/ });
    expect(screen.getAllByText(/посты канала показаны ссылками/)).toHaveLength(1);
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://t.me/berries_shop/12',
      'https://t.me/berries_shop/9',
    ]);
  });

  it('says so when there is no news yet', async () => {
    getNews.mockResolvedValue([]);
    renderAt(<Routes />, '/news');
    expect(await screen.findByText('Новостей пока нет')).toBeTruthy();
  });

  it('offers Повторить when the news fail to load, and loads them on retry', async () => {
    getNews.mockRejectedValueOnce(new Error('offline'));
    getNews.mockResolvedValueOnce([{ data_telegram_post: 'berries_shop/12' }]);
    renderAt(<Routes />, '/news');
    const retry = await screen.findByRole('button', { name: /Повторить/ });
    act(() => retry.click());
    await waitFor(() => expect(widgetScripts()).toHaveLength(1));
  });
});
