import { matchRoute, useLocation, useRouter } from 'wouter';

/**
 * Whether the current page is one of `paths`, matched the way the router matches its routes:
 * any letter case, with or without a trailing slash (`/Policy/` opens the policy page, so it is
 * the policy page here too). With `below`, the pages under a path count as well.
 */
export function useOnPage(paths: readonly string[], { below = false } = {}): boolean {
  const { parser } = useRouter();
  const [location] = useLocation();
  return paths.some((path) => matchRoute(parser, path, location, below)[0]);
}
