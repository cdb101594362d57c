import { getPolicy } from '../../api/content';
import { POLICY_SHOWN } from '../../lib/shown-data';
import { sharedQuery } from '../../ui/page-data';

export const policyQuery = sharedQuery(
  'content/policy',
  (api) => getPolicy(api),
  () => [POLICY_SHOWN],
);
