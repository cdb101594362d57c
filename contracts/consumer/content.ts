// Content calls (src/api/content.ts): the policy document link, the home carousel and the news.
import { MatchersV3 as M } from '@pact-foundation/pact';
import { describe, expect } from 'vitest';
import { newsBody, policyBody, slideBody } from '../support/bodies';
import { contract } from '../support/consumer';
import { NEWS_POST, POLICY, SLIDE } from '../support/examples';
import { STATES } from '../support/states';

export function contentContracts(): void {
  describe('content', () => {
    contract({
      description: 'GET /api/content/policy: the privacy policy document',
      given: [{ name: STATES.policy }],
      calls: 'getPolicy',
      request: { method: 'GET', path: '/api/content/policy' },
      response: { status: 200, body: policyBody(POLICY) },
      run: async ({ api }) => {
        expect(await api.getPolicy()).toEqual(POLICY);
      },
    });

    contract({
      description: 'GET /api/content/carousel: the home page slides',
      given: [{ name: STATES.slides }],
      calls: 'getCarousel',
      request: { method: 'GET', path: '/api/content/carousel' },
      response: { status: 200, body: M.eachLike(slideBody(SLIDE)) },
      run: async ({ api }) => {
        expect(await api.getCarousel()).toEqual([SLIDE]);
      },
    });

    contract({
      description: 'GET /api/telegram/news: the news channel posts',
      given: [{ name: STATES.news }],
      calls: 'getNews',
      request: { method: 'GET', path: '/api/telegram/news' },
      response: { status: 200, body: M.eachLike(newsBody(NEWS_POST)) },
      run: async ({ api }) => {
        expect(await api.getNews()).toEqual([NEWS_POST]);
      },
    });
  });
}
