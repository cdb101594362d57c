import { useState } from 'react';
import { responsiveImage, shopImagePath } from '../lib/image-url';
import classes from './ImageWithPlaceholder.module.css';

/** Shown when an item has no image, or when its image fails to load (spec §3). */
export const PLACEHOLDER_IMAGE = '/placeholder-product.svg';

interface ImageWithPlaceholderProps {
  src: string | null;
  alt: string;
  /** Intrinsic size: the browser reserves the box before the file arrives, so nothing jumps. */
  width: number;
  height: number;
  /**
   * The picture's width on screen at each breakpoint (the `sizes` attribute): the browser picks
   * the smallest of the image route's widths that is sharp at its pixel density.
   */
  sizes: string;
  /** For images in the first screenful; everything else loads when scrolled near. */
  eager?: boolean;
  /** The page's largest picture: asked for first (React preloads it in the server's HTML). */
  priority?: boolean;
  greyed?: boolean;
  className?: string;
}

export function ImageWithPlaceholder({
  src,
  alt,
  width,
  height,
  sizes,
  eager = false,
  priority = false,
  greyed = false,
  className,
}: ImageWithPlaceholderProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  // Only a picture on the shop's own origin: any other address shows the placeholder.
  const own = shopImagePath(src);
  const shown = own && own !== failedSrc ? own : PLACEHOLDER_IMAGE;
  const classNames = [classes.image, greyed && classes.greyed, className].filter(Boolean);
  return (
    <img
      {...responsiveImage(shown, sizes)}
      alt={alt}
      width={width}
      height={height}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={classNames.join(' ')}
      data-greyed={greyed || undefined}
      onError={() => {
        if (own) setFailedSrc(own);
      }}
    />
  );
}
