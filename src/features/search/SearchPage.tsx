import { Stack, VisuallyHidden } from '@mantine/core';
import { SearchBar } from './SearchBar';
import { SearchResults } from './SearchResults';
import { useProductSearch } from './useProductSearch';

/** Spec §2 /search: live search whose query lives in the URL's `q`. */
export default function SearchPage() {
  const search = useProductSearch();
  return (
    <Stack gap="lg">
      {/* The field's own label says «Поиск» on screen; the page still needs its heading. */}
      <VisuallyHidden>
        <h1>Поиск</h1>
      </VisuallyHidden>
      <SearchBar text={search.text} onType={search.type} onSubmit={search.submit} />
      <SearchResults results={search.results} typing={search.typing} onRetry={search.retry} />
    </Stack>
  );
}
