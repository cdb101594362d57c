import { useId } from 'react';
import { BUTTON, BUTTON_INNER, BUTTON_LABEL } from '../../ui/mantine-looks';
import classes from './Card.module.css';
import { dialogButtonProps, OutOfStockDialog } from './OutOfStockDialog';

const open = (dialog: HTMLDialogElement) => {
  if (!dialog.open) dialog.showModal();
};

/**
 * Spec §4: an unavailable product shows a disabled-looking `Недоступно` button; it still
 * answers a click, with the `Товар закончился` dialog, which the browser opens by itself. A
 * Mantine Button drawn by a plain element (ui/mantine-looks.ts), as on every card.
 */
export function UnavailableButton() {
  const id = useId();
  return (
    <>
      <button
        type="button"
        className={`${BUTTON} ${classes.unavailable}`}
        data-block
        data-disabled
        aria-haspopup="dialog"
        {...dialogButtonProps(id, 'open', open)}
      >
        <span className={BUTTON_INNER}>
          <span className={BUTTON_LABEL}>Недоступно</span>
        </span>
      </button>
      <OutOfStockDialog id={id} />
    </>
  );
}
