import { Anchor, Card, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import type { Product } from '../../api/types';
import { formatRub } from '../../lib/money';
import { BasketControl } from '../basket';

/** A product in a grid or carousel: image, name, price, stock line and the basket control. */
export function ProductCard({ product }: { product: Product }) {
  return (
    <Card withBorder maw={300} w="100%" padding="sm">
      <Stack gap="xs">
        <Anchor component={Link} href={`/product/${product.id}`}>
          {product.name}
        </Anchor>
        <Text>
          {product.price === null
            ? 'Цена неизвестна'
            : `${formatRub(product.price)} / ${product.unit}`}
        </Text>
        <Text size="sm">
          {product.available ? `в наличии ${product.rest} ${product.unit}` : 'закончилось'}
        </Text>
        <BasketControl product={product} />
      </Stack>
    </Card>
  );
}
