import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Button } from '../../ui/controls/Button';
import type { Policy } from '../../api/types';
import { Loaded } from '../../ui/Loaded';
import type { Load } from '../../ui/useLoads';

const TITLE = 'Политика конфиденциальности';

export default function PolicyPage({ policy }: { policy: Load<Policy> }) {
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{TITLE}</Title>
      <Loaded
        load={policy}
        pending={
          <Stack gap="sm" aria-busy="true" aria-label="Загрузка">
            <Skeleton height={14} />
            <Skeleton height={14} width="80%" />
            <Skeleton height={36} width={160} mt="xs" />
          </Stack>
        }
        failed="Не удалось загрузить политику конфиденциальности. Попробуйте ещё раз."
      >
        {({ file }) => (
          <>
            <Text>
              В политике описано, какие данные покупателей собирает магазин (номер телефона,
              комментарий к заказу, состав корзины и история заказов, файлы cookie), зачем они
              нужны, как долго хранятся и как их защищают.
            </Text>
            <Text>Полный текст политики открывается в новой вкладке в формате PDF.</Text>
            <div>
              <Button
                component="a"
                href={file}
                target="_blank"
                rel="noopener noreferrer"
                rightSection={<IconExternalLink size={16} aria-hidden />}
              >
                Посмотреть
              </Button>
            </div>
          </>
        )}
      </Loaded>
    </Stack>
  );
}
