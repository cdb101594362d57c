// A Django backend builds its image URLs from the Host it was asked under (DRF's
// build_absolute_uri): behind a proxy they name the backend's own address, which no visitor can
// load and the shop's CSP (img-src 'self') would block anyway. The shop serves /media itself, so
// it shows such a URL by its path.

/** Every string of `data` that starts with `{origin}/media/` for one of `origins`, as a path. */
export function relativeMediaUrls<T>(data: T, origins: readonly string[]): T {
  const prefixes = origins.map((origin) => `${origin.replace(/\/+$/, '')}/media/`);
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const prefix = prefixes.find((candidate) => value.startsWith(candidate));
      return prefix ? value.slice(prefix.length - '/media/'.length) : value;
    }
    if (Array.isArray(value)) return value.map(visit);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item)]));
    }
    return value;
  };
  return visit(data) as T;
}
