import { useId } from 'react';
import { Button } from '../../ui/controls/Button';
import classes from './Card.module.css';
import { dialogButtonProps, OutOfStockDialog } from './OutOfStockDialog';

const open = (dialog: HTMLDialogElement) => {
  if (!dialog.open) dialog.showModal();
};

/**
 * Spec §4: an unavailable product shows a disabled-looking `Недоступно` button; it still
 * answers a click, with the `Товар закончился` dialog, which the browser opens by itself.
 */
export function UnavailableButton() {
  const id = useId();
  return (
    <>
      <Button
        fullWidth
        data-disabled
        className={classes.unavailable}
        aria-haspopup="dialog"
        {...dialogButtonProps(id, 'open', open)}
      >
        Недоступно
      </Button>
      <OutOfStockDialog id={id} />
    </>
  );
}
