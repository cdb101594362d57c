import { paths } from '../../lib/paths';
import { defineRoute, type Params, SERVER } from '../../ui/route';
import { productHead } from './heads';
import { priceText, stockText } from '../../lib/product-text';
import { CITY, STORE_NAME } from '../../lib/shop-info';
import { catalogData } from './catalog-id';
import { productQuery } from './queries';

export const productRoute = defineRoute({
  path: paths.product.pattern,
  data: ({ id }: Params<typeof paths.product.pattern>) =>
    catalogData('product', id, (id) => ({ product: productQuery(id) })),
  title: ({ product: [product] }) => product.name,
  description: ({ product: [product] }) =>
    `${product.name}: ${priceText(product)}, ${stockText(product)}. ${STORE_NAME}, ${CITY}.`,
  page: () => import('./ProductPage'),
  server: SERVER && {
    head: ({ product }, address) => product && productHead(...product, address),
    indexable: true,
    cache: 'public',
  },
});
