import type { ReactNode } from 'react';
import { BUTTON_INNER, BUTTON_LABEL, BUTTON_SECTION } from './mantine-looks';

/**
 * The inside of Mantine's Button for a plain element with its look (mantine-looks.ts): the label,
 * with an icon before it. With an icon, the element carries `data-with-left-section`.
 */
export function ButtonContent({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <span className={BUTTON_INNER}>
      {icon && (
        <span className={BUTTON_SECTION} data-position="left">
          {icon}
        </span>
      )}
      <span className={BUTTON_LABEL}>{children}</span>
    </span>
  );
}
