import { getPolicy } from '../../api/content';
import { sharedQuery } from '../../ui/page-data';

export const policyQuery = sharedQuery('content/policy', (api) => getPolicy(api));
