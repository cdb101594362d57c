import { getPolicy } from '../../api/content';
import { query } from '../../ui/page-data';

export const policyQuery = query('content/policy', () => getPolicy());
