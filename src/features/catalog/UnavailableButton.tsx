import { Button } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import classes from './Card.module.css';

// The dialog's code (Modal, focus trap, scroll lock) downloads on the first click, not with the page.
const OutOfStockDialog = lazy(() => import('./OutOfStockDialog'));

/**
 * Spec §4: an unavailable product shows a disabled-looking `Недоступно` button; it still
 * answers a click, with the `Товар закончился` dialog.
 */
export function UnavailableButton() {
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <Button
        fullWidth
        data-disabled
        className={classes.unavailable}
        aria-haspopup="dialog"
        onClick={() => {
          setWanted(true);
          setOpened(true);
        }}
      >
        Недоступно
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <OutOfStockDialog opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
