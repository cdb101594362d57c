import { beforeAll, describe, expect, it } from 'vitest';
import { expectKeys, stubPerFile, Visitor } from './helpers.ts';

const server = stubPerFile();
let visitor: Visitor;

beforeAll(() => {
  visitor = new Visitor(server.url);
});

describe('content calls', () => {
  it('GET content/policy answers {file}', async () => {
    const { status, body } = await visitor.get('/api/content/policy');
    expect(status).toBe(200);
    expect(expectKeys(body, ['file'])).toEqual({ file: '/media/policy.pdf' });
  });

  it('GET content/carousel answers 3 slides with multi-line text and colours', async () => {
    const { status, body } = await visitor.get('/api/content/carousel');
    expect(status).toBe(200);
    const slides = body as Record<string, unknown>[];
    expect(slides).toHaveLength(3);
    for (const slide of slides) {
      expectKeys(slide, ['id', 'text', 'image', 'background', 'text_color']);
      expect(Number.isInteger(slide.id)).toBe(true);
      expect((slide.text as string).split('\n').length).toBeGreaterThanOrEqual(2);
      expect(slide.background).toMatch(/^#[0-9a-f]{6}$/i);
      expect(slide.text_color).toMatch(/^#[0-9a-f]{6}$/i);
      expect(slide.image).toMatch(/^\/media\/carousel\/slide-\d+\.(svg|jpg)$/);
    }
  });

  it('GET telegram/news answers 6+ channel posts, newest first', async () => {
    const { status, body } = await visitor.get('/api/telegram/news');
    expect(status).toBe(200);
    const news = body as { data_telegram_post: string }[];
    expect(news.length).toBeGreaterThanOrEqual(6);
    const posts = news.map((item) => {
      expectKeys(item, ['data_telegram_post']);
      const match = /^berries_shop\/(\d+)$/.exec(item.data_telegram_post);
      expect(match, item.data_telegram_post).not.toBeNull();
      return Number(match?.[1]);
    });
    expect([...posts].sort((a, b) => b - a)).toEqual(posts);
  });
});

describe('the policy file', () => {
  it('/media/policy.pdf answers the PDF', async () => {
    const response = await fetch(new URL('/media/policy.pdf', server.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  });
});
