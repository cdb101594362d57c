import { getNews } from '../../api/content';
import { NEWS_SHOWN } from '../../lib/shown-data';
import { sharedQuery } from '../../ui/page-data';

export const newsQuery = sharedQuery(
  'telegram/news',
  (api) => getNews(api),
  () => [NEWS_SHOWN],
);
