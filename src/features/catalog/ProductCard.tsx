import { Link } from 'wouter';
import type { Product } from '../../api/types';
import { hasPrice, priceText, stockText } from '../../lib/product-text';
import text from '../../ui/controls/Text.module.css';
import { ImageWithPlaceholder } from '../../ui/ImageWithPlaceholder';
import { BasketControl } from '../basket';
import classes from './Card.module.css';
import { UnavailableButton } from './UnavailableButton';
import { paths } from '../../lib/paths';

/** Product images are square (400 × 400 drawings or 2400 × 2400 photos in the stub). */
const IMAGE_SIZE = 300;

const NAME_CLASS = `${text.link} ${classes.name} ${classes.clamp} ${classes.productName}`;
const PRICE_CLASS = `${text.text} ${classes.price}`;
const NO_PRICE_CLASS = `${PRICE_CLASS} ${classes.dimmed}`;
const STOCK_CLASS = `${text.text} ${classes.small} ${classes.dimmed}`;
const SOLD_OUT_CLASS = `${text.text} ${classes.small} ${classes.error}`;

/**
 * A product in a grid or a carousel (spec §2, §4): image, name, price, stock and basket control.
 * Plain elements (Card.module.css): a page shows dozens of these.
 */
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
  const href = paths.product(product.id);
  return (
    <div className={classes.card} data-testid="product-card">
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
      <div className={classes.info}>
        <Link href={href} className={NAME_CLASS}>
          {product.name}
        </Link>
        <p className={hasPrice(product) ? PRICE_CLASS : NO_PRICE_CLASS}>{priceText(product)}</p>
        <p className={product.available ? STOCK_CLASS : SOLD_OUT_CLASS}>{stockText(product)}</p>
      </div>
      <div className={classes.control}>
        {product.available ? <BasketControl product={product} /> : <UnavailableButton />}
      </div>
    </div>
  );
}
