import type { ComponentPropsWithRef, ElementType } from 'react';

/** A control's own props (`Look`) and those of what draws it. */
export type ControlProps<Look, C extends ElementType> = Look & {
  /** What draws it: a `button` by default, `'a'` or wouter's `Link` for a link that looks so. */
  component?: C;
} & Omit<ComponentPropsWithRef<C>, keyof Look | 'component'>;
