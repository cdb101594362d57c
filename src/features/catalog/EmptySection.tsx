import { Link } from 'wouter';
import { Button } from '../../ui/controls/Button';
import { EmptyState } from '../../ui/EmptyState';
import { CATALOG_TITLE, EMPTY_SECTION_TEXT } from './texts';
import { paths } from '../../lib/paths';

/** A section or selection with nothing in it: the spec's text and a way back to the catalogue. */
export function EmptySection() {
  return (
    <EmptyState
      text={EMPTY_SECTION_TEXT}
      action={
        <Button component={Link} href={paths.catalog()} variant="light">
          {CATALOG_TITLE}
        </Button>
      }
    />
  );
}
