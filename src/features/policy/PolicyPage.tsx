import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { linkUrl } from '../../lib/link-url';
import { Button } from '../../ui/controls/Button';
import { useRouteData } from '../../ui/route';
import { ErrorState } from '../../ui/ErrorState';
import { policyRoute } from './policy-route';

const TITLE = 'Политика конфиденциальности';

/** Said instead of the link when the backend's address for the file is no link's. */
export const POLICY_FILE_MISSING =
  'Полный текст политики сейчас недоступен. Попробуйте открыть эту страницу позже.';

export default function PolicyPage() {
  const { policy } = useRouteData(policyRoute);
  const file = policy.status === 'done' ? linkUrl(policy.data.file) : null;

  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{TITLE}</Title>
      {policy.status === 'error' && (
        <ErrorState
          message="Не удалось загрузить политику конфиденциальности. Попробуйте ещё раз."
          onRetry={policy.reload}
        />
      )}
      {policy.status === 'loading' && (
        <Stack gap="sm" aria-busy="true" aria-label="Загрузка">
          <Skeleton height={14} />
          <Skeleton height={14} width="80%" />
          <Skeleton height={36} width={160} mt="xs" />
        </Stack>
      )}
      {policy.status === 'done' && (
        <>
          <Text>
            В политике описано, какие данные покупателей собирает магазин (номер телефона,
            комментарий к заказу, состав корзины и история заказов, файлы cookie), зачем они нужны,
            как долго хранятся и как их защищают.
          </Text>
          {file ? (
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
          ) : (
            <Text>{POLICY_FILE_MISSING}</Text>
          )}
        </>
      )}
    </Stack>
  );
}
