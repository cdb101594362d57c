import { Button } from '@mantine/core';
import { Link } from 'wouter';

/** `В каталог товаров`: the way on from an empty basket, checkout or order history (spec §2). */
export function CatalogButton() {
  return (
    <Button component={Link} href="/catalog">
      В каталог товаров
    </Button>
  );
}
