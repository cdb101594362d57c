import { describe, expect, it } from 'vitest';
import { capText, MAX_QUERY_LENGTH, queryOf } from '../../../src/features/search/query';
import {
  initialSearchInput,
  searchReducer,
  type SearchAction,
  type SearchInput,
} from '../../../src/features/search/search-state';

const run = (state: SearchInput, ...actions: SearchAction[]) =>
  actions.reduce(searchReducer, state);

describe('the query sent for a text', () => {
  it('is trimmed, and empty for blank text', () => {
    expect(queryOf('  малина ')).toBe('малина');
    expect(queryOf('   ')).toBe('');
  });

  it(`is cut to ${MAX_QUERY_LENGTH} characters, however long the text`, () => {
    const long = 'я'.repeat(10_000);
    expect(capText(long)).toHaveLength(MAX_QUERY_LENGTH);
    expect(queryOf(long)).toHaveLength(MAX_QUERY_LENGTH);
    expect(initialSearchInput(long).text).toHaveLength(MAX_QUERY_LENGTH);
  });
});

describe('the search input state', () => {
  it('starts by searching the URL query at once', () => {
    expect(initialSearchInput(' клубника')).toEqual({
      text: ' клубника',
      query: 'клубника',
      attempt: 0,
      url: ' клубника',
    });
    expect(initialSearchInput('').query).toBe('');
  });

  it('does not search while typing, and searches the text once the pause ends', () => {
    const typed = run(initialSearchInput(''), { type: 'typed', text: 'ма' });
    expect(typed.query).toBe('');
    expect(run(typed, { type: 'paused', text: 'ма' }).query).toBe('ма');
  });

  it('ignores the end of a pause for a text the field no longer shows', () => {
    const state = run(
      initialSearchInput(''),
      { type: 'typed', text: 'мал' },
      { type: 'url', text: 'клубника' },
      { type: 'paused', text: 'мал' },
    );
    expect(state.text).toBe('клубника');
    expect(state.query).toBe('клубника');
  });

  it('searches at once on submit', () => {
    const state = run(
      initialSearchInput(''),
      { type: 'typed', text: 'черн ' },
      { type: 'submitted' },
    );
    expect(state.query).toBe('черн');
  });

  it('clears the query at once when the field is emptied', () => {
    const state = run(initialSearchInput('малина'), { type: 'typed', text: ' ' });
    expect(state.query).toBe('');
  });

  it('keeps its own URL writes apart from URL changes made elsewhere', () => {
    const typed = run(initialSearchInput('ма'), { type: 'typed', text: 'мал' });
    const own = run(typed, { type: 'url', text: 'мал' });
    expect(own).toEqual({ text: 'мал', query: 'ма', attempt: 0, url: 'мал' });

    const back = run(own, { type: 'url', text: 'ма' });
    expect(back).toEqual({ text: 'ма', query: 'ма', attempt: 0, url: 'ма' });
  });

  it('counts a retry only when there is a query', () => {
    expect(run(initialSearchInput('мал'), { type: 'retried' }).attempt).toBe(1);
    expect(run(initialSearchInput(''), { type: 'retried' }).attempt).toBe(0);
  });
});
