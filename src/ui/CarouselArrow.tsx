import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { IconButton } from './controls/IconButton';
import hover from './HoverControls.module.css';

/** A carousel's round arrow, back or on; at an end it hides and leaves the tab order. */
export function CarouselArrow({
  direction,
  label,
  inactive = false,
  onClick,
  onFocus,
}: {
  direction: 'prev' | 'next';
  label: string;
  inactive?: boolean;
  onClick: () => void;
  onFocus?: () => void;
}) {
  const Icon = direction === 'next' ? IconChevronRight : IconChevronLeft;
  return (
    <IconButton
      variant="default"
      size="input-sm"
      className={hover.control}
      aria-label={label}
      data-inactive={inactive || undefined}
      tabIndex={inactive ? -1 : undefined}
      onClick={onClick}
      onFocus={onFocus}
    >
      <Icon size={18} aria-hidden />
    </IconButton>
  );
}
