import { getNews } from '../../api/content';
import { sharedQuery } from '../../ui/page-data';

export const newsQuery = sharedQuery('telegram/news', (api) => getNews(api));
