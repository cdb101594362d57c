import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import looks from '../../ui/ControlLooks.module.css';
import { useTypedBeforeHydration } from '../../ui/hydration';
import { ACTION_ICON, ACTION_ICON_ICON, BUTTON_ACTIVE } from '../../ui/mantine-looks';

/** The home page's search line: it hands the words to /search, which runs the search. */
export function HomeSearch() {
  const [, navigate] = useLocation();
  const [query, setQuery] = useState('');
  const field = useRef<HTMLInputElement>(null);
  // Words typed before the app took the page over are the ones Enter hands on.
  useTypedBeforeHydration(field, query, setQuery);
  const submit = () => {
    const q = query.trim();
    navigate(q ? `/search?q=${encodeURIComponent(q)}` : '/search');
  };
  return (
    // Without JavaScript (or before it has loaded) the form is a plain GET of /search?q=….
    <form
      role="search"
      action="/search"
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextInput
        ref={field}
        type="search"
        size="md"
        aria-label="Поиск"
        name="q"
        placeholder="Найти ягоды, варенье, саженцы…"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        rightSectionWidth={44}
        rightSection={
          // Mantine's subtle ActionIcon, drawn by a plain button (mantine-looks.ts).
          <button
            type="submit"
            className={`${ACTION_ICON} ${BUTTON_ACTIVE} ${looks.iconSubtle}`}
            aria-label="Найти"
          >
            <span className={ACTION_ICON_ICON}>
              <IconSearch size={20} aria-hidden />
            </span>
          </button>
        }
      />
    </form>
  );
}
