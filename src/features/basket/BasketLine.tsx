import { Anchor, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { Link } from 'wouter';
import type { BasketEntry } from '../../api/types';
import { lineSum } from '../../lib/amount';
import { formatRub } from '../../lib/money';
import { hasPrice, priceText, stockText } from '../../lib/product-text';
import { BackField } from '../../ui/BackField';
import { IconButton } from '../../ui/controls/IconButton';
import { ImageWithPlaceholder } from '../../ui/ImageWithPlaceholder';
import { BASKET_ACTION } from './basket-form';
import { BasketControl } from './BasketControl';
import classes from './BasketPage.module.css';
import { focusableDisabled } from './focusable-disabled';
import { useBasket, useBasketStore } from './store';
import { paths } from '../../lib/paths';

/** The line's picture (BasketPage.module.css, `sizes`): 80 px, 96 px from 48em. */
const BASKET_LINE_SIZES = '(min-width:48em) 96px,80px';

function lineTotal({ product, amount }: BasketEntry): string {
  if (!product.available) return 'Недоступно';
  if (!hasPrice(product)) return 'Цена неизвестна';
  return formatRub(lineSum(amount, product.price));
}

/** One basket line (spec §2): image, name, price, stock, quantity, total and remove. */
export function BasketLine({ line }: { line: BasketEntry }) {
  const { product } = line;
  const snap = useBasket();
  const { removeLine } = useBasketStore();
  const href = paths.product(product.id);
  const busy = snap.loading || Boolean(snap.lineLoading[String(product.id)]);
  return (
    <article
      className={`${classes.line} ${product.available ? '' : classes.unavailable}`}
      aria-label={product.name}
      data-testid="basket-line"
    >
      <Link href={href} className={classes.image} tabIndex={-1} aria-hidden>
        <ImageWithPlaceholder
          src={product.image}
          alt={product.name}
          width={96}
          height={96}
          sizes={BASKET_LINE_SIZES}
          greyed={!product.available}
        />
      </Link>
      <div className={classes.info}>
        <Anchor component={Link} href={href} fw={500} className={classes.name}>
          {product.name}
        </Anchor>
        <Text size="sm">{priceText(product)}</Text>
        <Text size="sm" c={product.available ? 'dimmed' : 'var(--mantine-color-error)'}>
          {stockText(product)}
        </Text>
      </div>
      <div className={classes.control}>
        <BasketControl product={product} />
      </div>
      <Text
        className={classes.sum}
        c={product.available ? undefined : 'dimmed'}
        data-testid="line-sum"
      >
        {lineTotal(line)}
      </Text>
      {/* A form, as the basket control is: the shop's server takes the line out without the app. */}
      <form
        method="post"
        action={BASKET_ACTION}
        style={{ display: 'contents' }}
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void removeLine(product);
        }}
      >
        <input type="hidden" name="product" value={product.id} />
        <BackField />
        <IconButton
          type="submit"
          name="change"
          value="delete"
          className={classes.remove}
          size="input-sm"
          variant="subtle"
          color="gray"
          aria-label={`Удалить из корзины: ${product.name}`}
          {...focusableDisabled(busy)}
        >
          <IconX size={20} aria-hidden />
        </IconButton>
      </form>
    </article>
  );
}
