import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { linkUrl } from '../../lib/link-url';
import { Button } from '../../ui/controls/Button';
import type { Policy } from '../../api/types';
import { Loaded } from '../../ui/Loaded';
import type { Load } from '../../ui/useLoads';

const TITLE = 'Политика конфиденциальности';

/** Said instead of the link when the backend's address for the file is no link's. */
export const POLICY_FILE_MISSING =
  'Полный текст политики сейчас недоступен. Попробуйте открыть эту страницу позже.';

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
        what="Не удалось загрузить политику конфиденциальности"
      >
        {({ file }) => (
          <>
            <Text>
              В политике описано, какие данные покупателей собирает магазин (номер телефона,
              комментарий к заказу, состав корзины и история заказов, файлы cookie), зачем они
              нужны, как долго хранятся и как их защищают.
            </Text>
            <PolicyFile file={linkUrl(file)} />
          </>
        )}
      </Loaded>
    </Stack>
  );
}

/** The link to the full text, or why there is none: the backend's address is no link's. */
function PolicyFile({ file }: { file: string | null }) {
  if (!file) return <Text>{POLICY_FILE_MISSING}</Text>;
  return (
    <>
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
  );
}
