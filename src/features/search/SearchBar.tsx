import { ActionIcon, CloseButton, Group, TextInput } from '@mantine/core';
import { IconArrowLeft, IconSearch } from '@tabler/icons-react';
import { useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { Logo } from '../../ui/Logo';
import { useTypedBeforeHydration } from '../../ui/hydration';
import { canGoBackInShop } from './go-back';
import { MAX_QUERY_LENGTH } from './query';

interface SearchBarProps {
  text: string;
  onType: (text: string) => void;
  onSubmit: () => void;
}

/** The back arrow, the logo, the field labelled «Поиск» with its clear button, and «Найти». */
export function SearchBar({ text, onType, onSubmit }: SearchBarProps) {
  const [, navigate] = useLocation();
  const field = useRef<HTMLInputElement>(null);

  const goBack = () => {
    if (canGoBackInShop()) window.history.back();
    else navigate('/');
  };

  // Text typed before the app took the page over is the field's text, and searched as typing is.
  useTypedBeforeHydration(field, text, onType);

  const clear = () => {
    onType('');
    field.current?.focus();
  };

  return (
    // Without JavaScript (or before it has loaded) the form is a plain GET of /search?q=….
    <form
      role="search"
      action="/search"
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <ActionIcon variant="subtle" color="gray" size={42} aria-label="Назад" onClick={goBack}>
          <IconArrowLeft size={22} aria-hidden />
        </ActionIcon>
        <Link href="/" aria-label="На главную" style={{ display: 'flex', paddingBottom: 5 }}>
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
            text === '' ? null : <CloseButton aria-label="Очистить поиск" onClick={clear} />
          }
        />
        <ActionIcon type="submit" size={42} aria-label="Найти">
          <IconSearch size={20} aria-hidden />
        </ActionIcon>
      </Group>
    </form>
  );
}
