import { CloseButton, Group, TextInput } from '@mantine/core';
import { IconArrowLeft, IconSearch } from '@tabler/icons-react';
import { type MouseEvent, useRef } from 'react';
import { Link, useSearchParams } from 'wouter';
import { IconButton } from '../../ui/controls/IconButton';
import { Logo } from '../../ui/Logo';
import { useTypedBeforeHydration } from '../../ui/hydration';
import { SearchForm } from '../../ui/SearchForm';
import { backTo, canGoBackInShop } from './go-back';
import { FROM_PARAM, searchLink } from './search-link';
import { MAX_QUERY_LENGTH } from './query';
import { paths } from '../../lib/paths';

interface SearchBarProps {
  text: string;
  onType: (text: string) => void;
  onSubmit: () => void;
}

/** The back arrow, the logo, the field labelled «Поиск» with its clear button, and «Найти». */
export function SearchBar({ text, onType, onSubmit }: SearchBarProps) {
  const field = useRef<HTMLInputElement>(null);
  // The back arrow and the clear button are links, so they work before the app and without it;
  // the page the search was opened from stays in the URL through both and through the form.
  const [params] = useSearchParams();
  const back = backTo(params.get(FROM_PARAM));
  const empty = searchLink(back);

  // Text typed before the app took the page over is the field's text, and searched as typing is.
  useTypedBeforeHydration(field, text, onType);

  // Once the app runs: an earlier page of the shop is where Back goes (its scroll kept), and the
  // clear button empties the field in place, as typing does.
  const goBack = (event: MouseEvent) => {
    if (!canGoBackInShop()) return;
    event.preventDefault();
    window.history.back();
  };
  const clear = (event: MouseEvent) => {
    event.preventDefault();
    onType('');
    field.current?.focus();
  };

  return (
    <SearchForm onSubmit={onSubmit}>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <IconButton
          component={Link}
          href={back}
          variant="subtle"
          color="gray"
          size="input-md"
          aria-label="Назад"
          onClick={goBack}
        >
          <IconArrowLeft size={22} aria-hidden />
        </IconButton>
        <Link
          href={paths.home()}
          aria-label="На главную"
          style={{ display: 'flex', paddingBottom: 5 }}
        >
          <Logo withName={false} />
        </Link>
        <TextInput
          ref={field}
          style={{ flex: 1, minWidth: 0 }}
          size="md"
          label="Поиск"
          name="q"
          placeholder="Например, малина"
          value={text}
          onChange={(event) => onType(event.currentTarget.value)}
          maxLength={MAX_QUERY_LENGTH}
          autoFocus
          autoComplete="off"
          enterKeyHint="search"
          rightSectionPointerEvents="all"
          rightSection={
            text === '' ? null : (
              <CloseButton component="a" href={empty} aria-label="Очистить поиск" onClick={clear} />
            )
          }
        />
        {back !== '/' && <input type="hidden" name={FROM_PARAM} value={back} />}
        <IconButton type="submit" size="input-md" aria-label="Найти">
          <IconSearch size={20} aria-hidden />
        </IconButton>
      </Group>
    </SearchForm>
  );
}
