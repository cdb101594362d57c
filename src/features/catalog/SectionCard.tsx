import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'wouter';
import type { SectionRef } from '../../api/types';
import text from '../../ui/controls/Text.module.css';
import { ImageWithPlaceholder } from '../../ui/ImageWithPlaceholder';
import classes from './Card.module.css';
import { paths } from '../../lib/paths';

const IMAGE_SIZE = 300;

const CARD_CLASS = `${classes.card} ${classes.sectionCard}`;
const NAME_CLASS = `${text.text} ${classes.name} ${classes.clamp} ${classes.sectionName}`;
const HINT_CLASS = `${text.text} ${classes.small}`;

/**
 * A section in a grid or a carousel: its image and name; the whole card links to it. Plain
 * elements (Card.module.css): a page shows dozens of these.
 */
export function SectionCard({
  section,
  imageSizes,
  eager = false,
}: {
  section: SectionRef;
  /** How wide the card's layout shows it (src/ui/image-sizes.ts). */
  imageSizes: string;
  eager?: boolean;
}) {
  return (
    <Link href={paths.section(section.id)} className={CARD_CLASS} data-testid="section-card">
      <div className={classes.imageLink}>
        <ImageWithPlaceholder
          src={section.image}
          alt=""
          width={IMAGE_SIZE}
          height={IMAGE_SIZE}
          sizes={imageSizes}
          eager={eager}
        />
      </div>
      <p className={NAME_CLASS}>{section.name}</p>
      <div className={classes.sectionHint} aria-hidden>
        <p className={HINT_CLASS}>Открыть раздел</p>
        <IconChevronRight size={16} />
      </div>
    </Link>
  );
}
