import { Anchor, Box, Card, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import type { Product } from '../../api/types';
import { hasPrice, priceText, stockText } from '../../lib/product-text';
import { ImageWithPlaceholder } from '../../ui/ImageWithPlaceholder';
import { BasketControl } from '../basket';
import classes from './Card.module.css';
import { UnavailableButton } from './UnavailableButton';

/** Product images are square (400 × 400 drawings or 2400 × 2400 photos in the stub). */
const IMAGE_SIZE = 300;

/** A product in a grid or a carousel (spec §2, §4): image, name, price, stock and basket control. */
export function ProductCard({
  product,
  imageSizes,
  eager = false,
  priority = false,
}: {
  product: Product;
  /** How wide the card's layout shows it (src/ui/image-sizes.ts). */
  imageSizes: string;
  eager?: boolean;
  /** The page's largest picture (the product page's). */
  priority?: boolean;
}) {
  const href = `/product/${product.id}`;
  return (
    <Card withBorder padding="sm" className={classes.card} data-testid="product-card">
      <Link href={href} className={classes.imageLink} tabIndex={-1} aria-hidden>
        <ImageWithPlaceholder
          src={product.image}
          alt={product.name}
          width={IMAGE_SIZE}
          height={IMAGE_SIZE}
          sizes={imageSizes}
          eager={eager}
          priority={priority}
          greyed={!product.available}
        />
      </Link>
      <Stack gap={4} mt="sm" flex={1}>
        <Anchor component={Link} href={href} fw={500} lineClamp={2} className={classes.name}>
          {product.name}
        </Anchor>
        <Text fw={700} c={hasPrice(product) ? undefined : 'dimmed'}>
          {priceText(product)}
        </Text>
        <Text size="sm" c={product.available ? 'dimmed' : 'var(--mantine-color-error)'}>
          {stockText(product)}
        </Text>
      </Stack>
      <Box mt="sm">
        {product.available ? <BasketControl product={product} /> : <UnavailableButton />}
      </Box>
    </Card>
  );
}
