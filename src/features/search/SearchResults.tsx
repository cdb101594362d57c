import { Box, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { ProductGrid } from '../catalog';
import type { SearchFound, SearchResults as Results } from './useSearchResults';

export const NOTHING_FOUND_TEXT = 'По вашему запросу не нашлось товаров';

interface SearchResultsProps {
  results: Results;
  /** The field holds text that is not searched yet: the results shown answer older text. */
  typing: boolean;
  onRetry: () => void;
}

export function SearchResults({ results, typing, onRetry }: SearchResultsProps) {
  switch (results.status) {
    case 'idle':
      return null;
    case 'error':
      return (
        <ErrorState what="Не удалось выполнить поиск" failure={results.failure} onRetry={onRetry} />
      );
    case 'loading':
      return (
        <>
          <StatusLine>
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              Ищем…
            </Text>
          </StatusLine>
          {results.previous && (
            <Stale>
              <Found found={results.previous} />
            </Stale>
          )}
        </>
      );
    case 'done': {
      if (typing) {
        // The field no longer says what these results answer: they stay, dimmed, until the
        // search for the new text replaces them, and an old «nothing found» goes at once.
        return (
          <>
            <StatusLine />
            <Stale>
              <Found found={results} />
            </Stale>
          </>
        );
      }
      if (results.sections.length === 0 && results.products.length === 0) {
        return <EmptyState text={NOTHING_FOUND_TEXT} />;
      }
      return (
        <>
          <StatusLine>
            <Text size="sm" c="dimmed">
              {summary(results)}
            </Text>
          </StatusLine>
          <Found found={results} />
          {/* No goods found: said below any sections that matched. */}
          {results.products.length === 0 && <EmptyState text={NOTHING_FOUND_TEXT} />}
        </>
      );
    }
  }
}

/**
 * Results of an earlier text, kept dimmed so the grid does not blink on every pause. Inert:
 * neither a tap nor the Tab key nor a screen reader reaches what no longer answers the field.
 */
function Stale({ children }: { children: ReactNode }) {
  return (
    <Box inert opacity={0.45}>
      {children}
    </Box>
  );
}

/** One line of fixed height, so the grid below does not jump when loading starts or ends. */
function StatusLine({ children }: { children?: ReactNode }) {
  return (
    <Group gap="xs" h={24} role="status" aria-live="polite">
      {children}
    </Group>
  );
}

function summary({ sections, products }: SearchFound): string {
  const parts = [];
  if (products.length > 0) parts.push(`товаров: ${products.length}`);
  if (sections.length > 0) parts.push(`разделов: ${sections.length}`);
  return `Найдено ${parts.join(', ')}`;
}

function Found({ found }: { found: SearchFound }) {
  return (
    <Stack gap="lg">
      {found.sections.length > 0 && (
        <Stack gap="sm" component="section" aria-label="Разделы">
          <Title order={2} size="h3">
            Разделы
          </Title>
          <ProductGrid sections={found.sections} products={[]} eager />
        </Stack>
      )}
      {found.products.length > 0 && (
        <Stack gap="sm" component="section" aria-label="Товары">
          <Title order={2} size="h3">
            Товары
          </Title>
          {/* A section or two leave the first products on a phone's first screen (one of them
              was the page's largest picture, and it waited for the layout as a lazy one). */}
          <ProductGrid products={found.products} eager cardsAbove={found.sections.length} />
        </Stack>
      )}
    </Stack>
  );
}
