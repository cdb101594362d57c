import { paths } from '../../lib/paths';
import { SERVER, defineRoute } from '../../ui/route';
import { policyQuery } from './queries';

export const policyRoute = defineRoute({
  path: paths.policy.pattern,
  data: () => ({ deferred: { policy: policyQuery } }),
  title: 'Политика конфиденциальности',
  page: () => import('./PolicyPage'),
  server: SERVER && { indexable: true, cache: 'public' },
});
