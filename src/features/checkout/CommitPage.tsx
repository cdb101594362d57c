import { Title } from '@mantine/core';
import { useDocumentTitle } from '../../lib/document-title';

// The screen itself comes with its own issue; the route, the title and the layout work now.
export default function CommitPage() {
  useDocumentTitle('Подтверждение заказа');
  return <Title order={1}>Подтвердить заказ</Title>;
}
