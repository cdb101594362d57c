import { Skeleton } from '@mantine/core';
import classes from './Card.module.css';

// Placeholders with the cards' own proportions: a square image, two name lines, the price,
// the stock line and the button, so the real cards take exactly their place.

export function ProductCardSkeleton() {
  return (
    <div className={classes.card} aria-hidden>
      <div className={classes.imageLink}>
        <Skeleton radius={0} style={{ aspectRatio: '1 / 1' }} />
      </div>
      <div className={classes.info}>
        <div className={classes.name}>
          <Skeleton height={14} mt={4} width="90%" />
          <Skeleton height={14} mt={8} width="60%" />
        </div>
        <Skeleton height={18} mt={3} mb={3} width="55%" />
        <Skeleton height={12} mt={4} mb={5} width="70%" />
      </div>
      <Skeleton height={36} mt="sm" />
    </div>
  );
}

export function SectionCardSkeleton() {
  return (
    <div className={classes.card} aria-hidden>
      <div className={classes.imageLink}>
        <Skeleton radius={0} style={{ aspectRatio: '1 / 1' }} />
      </div>
      <div className={`${classes.name} ${classes.skeletonName}`}>
        <Skeleton height={14} mt={4} width="80%" />
      </div>
    </div>
  );
}
