import { Component, type ReactNode } from 'react';
import { ErrorState } from '../ui/ErrorState';

interface Props {
  /** The page's path: a failure stays on its page, and the next page starts afresh. */
  path: string;
  children: ReactNode;
}

/**
 * What a page that fails to render shows instead of a blank shop: its code did not download
 * (a phone losing the network between pages), or it could not draw an answer. React keeps a
 * failed page import failed, so `Повторить` reloads the page; the basket lives on the server.
 */
export class PageErrorBoundary extends Component<Props, { failed: boolean; path: string }> {
  override state = { failed: false, path: this.props.path };

  static getDerivedStateFromProps({ path }: Props, state: { path: string }) {
    return path === state.path ? null : { failed: false, path };
  }

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <ErrorState
        message="Не удалось показать страницу. Проверьте соединение и попробуйте ещё раз."
        onRetry={() => window.location.reload()}
      />
    );
  }
}
