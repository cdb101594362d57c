import { Anchor, Box, Card, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import type { Product } from '../../api/types';
import { formatRub } from '../../lib/money';
import { ImageWithPlaceholder } from '../../ui/ImageWithPlaceholder';
import { BasketControl } from '../basket';
import classes from './Card.module.css';
import { UnavailableButton } from './UnavailableButton';

/** Product images are square (400 × 400 in the stub). */
const IMAGE_SIZE = 300;

export function priceText(product: Pick<Product, 'price' | 'unit'>): string {
  return product.price === null
    ? 'Цена неизвестна'
    : `${formatRub(product.price)} / ${product.unit}`;
}

// Stock is a measure, not money: `12,5 кг` with the Russian decimal comma.
const quantity = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });

export function stockText(product: Pick<Product, 'available' | 'rest' | 'unit'>): string {
  return product.available
    ? `в наличии ${quantity.format(product.rest)} ${product.unit}`
    : 'закончилось';
}

/** A product in a grid or a carousel (spec §2, §4): image, name, price, stock and basket control. */
export function ProductCard({ product, eager = false }: { product: Product; eager?: boolean }) {
  const href = `/product/${product.id}`;
  return (
    <Card withBorder padding="sm" className={classes.card} data-testid="product-card">
      <Link href={href} className={classes.imageLink} tabIndex={-1} aria-hidden>
        <ImageWithPlaceholder
          src={product.image}
          alt={product.name}
          width={IMAGE_SIZE}
          height={IMAGE_SIZE}
          eager={eager}
          greyed={!product.available}
        />
      </Link>
      <Stack gap={4} mt="sm" flex={1}>
        <Anchor component={Link} href={href} fw={500} lineClamp={2} className={classes.name}>
          {product.name}
        </Anchor>
        <Text fw={700} c={product.price === null ? 'dimmed' : undefined}>
          {priceText(product)}
        </Text>
        <Text size="sm" c={product.available ? 'dimmed' : 'red'}>
          {stockText(product)}
        </Text>
      </Stack>
      <Box mt="sm">
        {product.available ? <BasketControl product={product} /> : <UnavailableButton />}
      </Box>
    </Card>
  );
}
