import { getNews } from '../../api/content';
import { query } from '../../ui/page-data';

export const newsQuery = query('telegram/news', () => getNews());
