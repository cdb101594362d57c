import { Title } from '@mantine/core';
import { useDocumentTitle } from '../../lib/document-title';

// The screen itself comes with its own issue; the route, the title and the layout work now.
export default function LoginPage() {
  useDocumentTitle('Вход');
  return <Title order={1}>Вход</Title>;
}
