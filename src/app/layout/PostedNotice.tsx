import { usePageData } from '../../ui/page-data';
import classes from './Layout.module.css';

/**
 * The message the shop's server gave a form posted without the app (a basket change that did not
 * land), on the page it sent the shopper back to. It goes with that page.
 */
export function PostedNotice() {
  const notice = usePageData()?.outcome.notice;
  return notice ? (
    <p className={classes.notice} role="alert" data-testid="posted-notice">
      {notice}
    </p>
  ) : null;
}
