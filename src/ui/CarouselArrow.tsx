import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import hover from './HoverControls.module.css';
import { ACTION_ICON, ACTION_ICON_ICON, BUTTON_ACTIVE } from './mantine-looks';

const CLASS = `${ACTION_ICON} ${BUTTON_ACTIVE} ${hover.control}`;

/**
 * A carousel's round arrow, back or on; at an end it hides and leaves the tab order. Mantine's
 * default ActionIcon drawn by a plain button (mantine-looks.ts): a page has several carousels.
 */
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
    <button
      type="button"
      className={CLASS}
      data-variant="default"
      aria-label={label}
      data-inactive={inactive || undefined}
      tabIndex={inactive ? -1 : undefined}
      onClick={onClick}
      onFocus={onFocus}
    >
      <span className={ACTION_ICON_ICON}>
        <Icon size={18} aria-hidden />
      </span>
    </button>
  );
}
