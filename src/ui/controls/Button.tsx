import type { ComponentPropsWithRef, ElementType, ReactNode } from 'react';
import classes from './Button.module.css';

export type ButtonVariant = 'filled' | 'light' | 'subtle' | 'default';
export type ButtonSize = 'sm' | 'md' | 'compact-sm' | 'compact-xs';

interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Corners of the xl radius, a pill. */
  round?: boolean;
  /** As wide as its container. */
  fullWidth?: boolean;
  leftSection?: ReactNode;
  rightSection?: ReactNode;
  /** Waits for an answer: a spinner instead of the label, and presses do nothing. */
  loading?: boolean;
  /**
   * Looks disabled while it still answers a click (`Недоступно` opens its dialog); `disabled`
   * on a button disables it outright.
   */
  looksDisabled?: boolean;
}

export type ButtonProps<C extends ElementType = 'button'> = ButtonLook & {
  /** What draws it: a `button` by default, `'a'` or wouter's `Link` for a link that looks so. */
  component?: C;
} & Omit<ComponentPropsWithRef<C>, keyof ButtonLook | 'component'>;

/**
 * The shop's button (and a link that looks like one): Mantine's Button look on plain elements,
 * styled by Button.module.css on Mantine's public theme variables. Plain markup: a page repeats
 * it tens of times, and the server renders it at the cost of its HTML.
 */
export function Button<C extends ElementType = 'button'>({
  component,
  variant = 'filled',
  size = 'sm',
  round = false,
  fullWidth = false,
  leftSection,
  rightSection,
  loading = false,
  looksDisabled = false,
  className,
  children,
  ...rest
}: ButtonProps<C>) {
  const Root: ElementType = component ?? 'button';
  const isButton = Root === 'button';
  const names = [classes.root];
  if (variant !== 'filled') names.push(classes[variant]);
  if (size !== 'sm') names.push(classes[size]);
  if (round) names.push(classes.round);
  if (fullWidth) names.push(classes.block);
  if (leftSection) names.push(classes.withLeft);
  if (rightSection) names.push(classes.withRight);
  if (className) names.push(className as string);
  return (
    <Root
      {...(isButton ? { type: 'button' } : {})}
      {...rest}
      {...(loading && isButton ? { disabled: true } : {})}
      className={names.join(' ')}
      data-loading={loading || undefined}
      data-disabled={looksDisabled || (rest as { disabled?: boolean }).disabled || undefined}
    >
      {loading && <span className={classes.loader} aria-hidden />}
      <span className={classes.inner}>
        {leftSection && <span className={classes.section}>{leftSection}</span>}
        <span className={classes.label}>{children}</span>
        {rightSection && <span className={classes.section}>{rightSection}</span>}
      </span>
    </Root>
  );
}
