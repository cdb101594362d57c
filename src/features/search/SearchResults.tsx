import { Box, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { ProductGrid } from '../catalog';
import type { SearchFound, SearchResults as Results } from './useSearchResults';

export const NOTHING_FOUND_TEXT = 'По вашему запросу не нашлось товаров';

interface SearchResultsProps {
  results: Results;
  /** The field holds text that is not searched yet: an old «nothing found» must not show. */
  typing: boolean;
  onRetry: () => void;
}

export function SearchResults({ results, typing, onRetry }: SearchResultsProps) {
  switch (results.status) {
    case 'idle':
      return null;
    case 'error':
      return (
        <ErrorState
          message="Не удалось выполнить поиск. Проверьте соединение и попробуйте ещё раз."
          onRetry={onRetry}
        />
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
            // The last answer stays, dimmed, until the new one arrives: no blink on every pause.
            <Box aria-hidden opacity={0.45} style={{ pointerEvents: 'none' }}>
              <Found found={results.previous} />
            </Box>
          )}
        </>
      );
    case 'done': {
      // The text says no goods were found: it stands whenever products are missing, below any
      // sections that matched, but not for text the shopper has changed since.
      const nothing = results.products.length === 0 && !typing;
      if (results.sections.length === 0 && results.products.length === 0) {
        return nothing ? <EmptyState text={NOTHING_FOUND_TEXT} /> : null;
      }
      return (
        <>
          <StatusLine>
            <Text size="sm" c="dimmed">
              {summary(results)}
            </Text>
          </StatusLine>
          <Found found={results} />
          {nothing && <EmptyState text={NOTHING_FOUND_TEXT} />}
        </>
      );
    }
  }
}

/** One line of fixed height, so the grid below does not jump when loading starts or ends. */
function StatusLine({ children }: { children: ReactNode }) {
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
          {/* The first products are on the first screen only when no section was found. */}
          <ProductGrid products={found.products} eager={found.sections.length === 0} />
        </Stack>
      )}
    </Stack>
  );
}
