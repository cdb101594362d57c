import { IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'wouter';
import { useBasket } from '../../features/basket/store';
import { formatRub, isPositiveTotal } from '../../lib/money';
import { Button } from '../../ui/controls/Button';
import classes from './Layout.module.css';
import { useOnPage } from './useOnPage';
import { paths } from '../../lib/paths';

const HIDDEN_ON = [paths.basket, paths.commit, paths.policy, paths.news].map(
  (page) => page.pattern,
);

/** Spec §2: hidden on these pages and whenever the total is zero or not a number. */
export function PriceButton() {
  const hidden = useOnPage(HIDDEN_ON);
  const { amount_sum } = useBasket();
  if (hidden || !isPositiveTotal(amount_sum)) return null;
  // Its own landmark: the dock it floats in sits outside header, main and footer.
  return (
    <aside aria-label="Корзина">
      <Button
        component={Link}
        href={paths.basket()}
        size="md"
        className={classes.price}
        leftSection={<IconShoppingCart size={20} aria-hidden />}
        aria-label={`Корзина на сумму ${formatRub(amount_sum)}`}
      >
        {formatRub(amount_sum)}
      </Button>
    </aside>
  );
}
