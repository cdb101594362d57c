import { Anchor, CloseButton, Group, Text } from '@mantine/core';
import type { MouseEvent, Ref } from 'react';
import { MANAGER_CHAT_URL } from '../../lib/shop-info';
import { Button } from '../../ui/controls/Button';
import classes from './OutOfStockDialog.module.css';

export const OUT_OF_STOCK_TITLE = 'Товар закончился';

/** The browser runs a button's `command` on its `commandfor` element (invoker commands) by itself. */
const browserRunsCommands = () => 'command' in HTMLButtonElement.prototype;

/**
 * What a button of the dialog's does, by the browser alone: with invoker commands (Chromium 135,
 * Firefox 144, Safari 26.2) `show-modal` opens it as a modal dialog and `close` closes it; a
 * browser without them shows it as a popover (`popovertarget`) and hides it again. Once the app
 * runs in such a browser, it opens the modal dialog itself (`onModal`), as the others do.
 */
export function dialogButtonProps(
  id: string,
  action: 'open' | 'close',
  onModal: (dialog: HTMLDialogElement) => void,
) {
  return {
    commandfor: id,
    command: action === 'open' ? 'show-modal' : 'close',
    popoverTarget: id,
    popoverTargetAction: action === 'open' ? ('show' as const) : ('hide' as const),
    onClick: (event: MouseEvent) => {
      const dialog = document.getElementById(id);
      if (browserRunsCommands() || !(dialog instanceof HTMLDialogElement)) return;
      event.preventDefault();
      onModal(dialog);
    },
  };
}

const close = (dialog: HTMLDialogElement) => {
  if (dialog.open) dialog.close();
};

/**
 * Spec §4: a request may be left, the buyer hears when it returns, and the price may change; Ok
 * closes it. A native <dialog> in the page's HTML, so it opens before the app's code has arrived
 * and without it; as a modal dialog the browser moves the focus into it (the close button, as
 * Mantine's Modal did), keeps it there, closes it on Escape and gives the focus back to the
 * button that opened it.
 */
export function OutOfStockDialog({ id, ref }: { id: string; ref?: Ref<HTMLDialogElement> }) {
  const titleId = `${id}-title`;
  return (
    <dialog ref={ref} id={id} popover="auto" aria-labelledby={titleId} className={classes.dialog}>
      <div className={classes.header}>
        <h2 id={titleId} className={classes.title}>
          {OUT_OF_STOCK_TITLE}
        </h2>
        <CloseButton aria-label="Закрыть" {...dialogButtonProps(id, 'close', close)} />
      </div>
      <div className={classes.body}>
        <Text>
          Вы можете{' '}
          <Anchor
            href={MANAGER_CHAT_URL}
            target="_blank"
            rel="noopener noreferrer"
            underline="always"
          >
            оставить заявку
          </Anchor>
          , и мы сообщим вам, когда товар снова появится в продаже. Обратите внимание: цена товара
          может измениться.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button {...dialogButtonProps(id, 'close', close)}>Ok</Button>
        </Group>
      </div>
    </dialog>
  );
}
