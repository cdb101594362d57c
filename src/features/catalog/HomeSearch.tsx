import { IconSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { IconButton } from '../../ui/controls/IconButton';
import { TextInput } from '../../ui/controls/TextInput';
import { useTypedBeforeHydration } from '../../ui/hydration';
import { SearchForm } from '../../ui/SearchForm';
import { paths } from '../../lib/paths';

/** The home page's search line: it hands the words to /search, which runs the search. */
export function HomeSearch() {
  const [, navigate] = useLocation();
  const [query, setQuery] = useState('');
  const field = useRef<HTMLInputElement>(null);
  // Words typed before the app took the page over are the ones Enter hands on.
  useTypedBeforeHydration(field, query, setQuery);
  const submit = () => {
    const q = query.trim();
    navigate(paths.search({ q }));
  };
  return (
    <SearchForm onSubmit={submit}>
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
    </SearchForm>
  );
}
