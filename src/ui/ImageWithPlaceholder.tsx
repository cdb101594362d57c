import { useState } from 'react';
import classes from './ImageWithPlaceholder.module.css';

/** Shown when an item has no image, or when its image fails to load (spec §3). */
export const PLACEHOLDER_IMAGE = '/placeholder-product.svg';

interface ImageWithPlaceholderProps {
  src: string | null;
  alt: string;
  /** Intrinsic size: the browser reserves the box before the file arrives, so nothing jumps. */
  width: number;
  height: number;
  /** For images in the first screenful; everything else loads when scrolled near. */
  eager?: boolean;
  greyed?: boolean;
  className?: string;
}

export function ImageWithPlaceholder({
  src,
  alt,
  width,
  height,
  eager = false,
  greyed = false,
  className,
}: ImageWithPlaceholderProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = src && src !== failedSrc ? src : PLACEHOLDER_IMAGE;
  const classNames = [classes.image, greyed && classes.greyed, className].filter(Boolean);
  return (
    <img
      src={shown}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={classNames.join(' ')}
      data-placeholder={shown === PLACEHOLDER_IMAGE || undefined}
      data-greyed={greyed || undefined}
      onError={() => {
        if (src) setFailedSrc(src);
      }}
    />
  );
}
