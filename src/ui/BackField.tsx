import { useLocation, useSearch } from 'wouter';

/**
 * The page a form posted to the shop's server comes back to (a 303 to this path): the page it is
 * on, with its query.
 */
export function BackField() {
  const [location] = useLocation();
  const search = useSearch();
  return <input type="hidden" name="back" value={search ? `${location}?${search}` : location} />;
}
