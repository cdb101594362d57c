import { Link } from 'wouter';
import { Button } from './controls/Button';
import { paths } from '../lib/paths';

/** `В каталог товаров`: the way on from an empty basket, checkout or order history (spec §2). */
export function CatalogButton() {
  return (
    <Button component={Link} href={paths.catalog()}>
      В каталог товаров
    </Button>
  );
}
