import { IconSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { IconButton } from '../../ui/controls/IconButton';
import { TextInput } from '../../ui/controls/TextInput';
import { useTypedBeforeHydration } from '../../ui/hydration';

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
        sectionWidth={44}
        rightSection={
          <IconButton type="submit" variant="subtle" size="lg" aria-label="Найти">
            <IconSearch size={20} aria-hidden />
          </IconButton>
        }
      />
    </form>
  );
}
