import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'wouter';
import { PageErrorBoundary } from '../../../src/app/PageErrorBoundary';
import { renderAt } from '../render';

function Broken(): never {
  throw new Error('the answer had no name');
}

/** The product page breaks; any other page draws. */
function Page() {
  const [path] = useLocation();
  return (
    <PageErrorBoundary path={path}>
      {path === '/product/7' ? <Broken /> : <h1>Каталог</h1>}
    </PageErrorBoundary>
  );
}

afterEach(() => vi.restoreAllMocks());

describe('a page that fails to render', () => {
  it('shows a Russian message with Повторить instead of a blank shop, until the path changes', () => {
    // React reports the caught error on the console; that report is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { location } = renderAt(<Page />, '/product/7');
    expect(screen.getByRole('alert').textContent).toContain('Не удалось показать страницу');
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeTruthy();

    act(() => location.navigate('/catalog'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Каталог' })).toBeTruthy();
  });
});
