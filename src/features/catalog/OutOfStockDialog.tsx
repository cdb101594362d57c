import '@mantine/core/styles/Modal.css';
import { Anchor, Button, Group, Modal, Text } from '@mantine/core';
import { MANAGER_CHAT_URL } from '../../lib/shop-info';

export const OUT_OF_STOCK_TITLE = 'Товар закончился';

/** Spec §4: a request may be left, the buyer hears when it returns, and the price may change. */
export default function OutOfStockDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={OUT_OF_STOCK_TITLE}
      centered
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
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
        <Button onClick={onClose}>Ok</Button>
      </Group>
    </Modal>
  );
}
