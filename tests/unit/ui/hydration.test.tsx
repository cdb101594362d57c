import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTypedBeforeHydration } from '../../../src/ui/hydration';

/** A field as the shop's are: its text in state, kept by the hook; `typed` sees each change. */
function Field({ typed }: { typed: (text: string) => void }) {
  const [text, setText] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const onType = (value: string) => {
    typed(value);
    setText(value);
  };
  useTypedBeforeHydration(field, text, onType);
  return (
    <input
      ref={field}
      aria-label="Поиск"
      value={text}
      onChange={(event) => onType(event.currentTarget.value)}
    />
  );
}

let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

describe('useTypedBeforeHydration', () => {
  it("makes the text typed into the server's field the state, and keeps it on screen", () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Field typed={() => {}} />);
    document.body.append(container);
    // The shopper types before the app's code has arrived.
    container.querySelector('input')!.value = 'клубника';

    const typed = vi.fn();
    act(() => {
      root = hydrateRoot(container, <Field typed={typed} />);
    });
    expect(typed).toHaveBeenCalledExactlyOnceWith('клубника');
    expect(screen.getByRole<HTMLInputElement>('textbox').value).toBe('клубника');

    // The next key goes on from there.
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'клубника!' } });
    expect(typed).toHaveBeenLastCalledWith('клубника!');
  });

  it('does nothing for a field the app drew itself', () => {
    const typed = vi.fn();
    render(<Field typed={typed} />);
    expect(typed).not.toHaveBeenCalled();
  });
});
