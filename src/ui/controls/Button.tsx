import type { ElementType, ReactNode } from 'react';
import control from './Control.module.css';
import type { ControlProps } from './control-props.ts';
import classes from './Button.module.css';

export type ButtonVariant = 'filled' | 'light' | 'subtle' | 'default';
export type ButtonSize = 'sm' | 'md' | 'compact-sm' | 'compact-xs';

interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** As wide as its container. */
  fullWidth?: boolean;
  leftSection?: ReactNode;
  rightSection?: ReactNode;
  /** Waits for an answer: a spinner instead of the label, and presses do nothing. */
  loading?: boolean;
  /** A button that cannot be pressed (`data-disabled` instead: looks so, yet answers a click). */
  disabled?: boolean;
}

export type ButtonProps<C extends ElementType = 'button'> = ControlProps<ButtonLook, C>;

/**
 * The shop's button (and a link that looks like one): Mantine's Button look on plain elements,
 * styled by Button.module.css and Control.module.css on Mantine's public theme variables. Plain
 * markup: a page repeats it tens of times, and the server renders it at the cost of its HTML.
 */
export function Button<C extends ElementType = 'button'>({
  component,
  variant = 'filled',
  size = 'sm',
  fullWidth = false,
  leftSection,
  rightSection,
  loading = false,
  disabled,
  className,
  children,
  ...rest
}: ButtonProps<C>) {
  const Root: ElementType = component ?? 'button';
  const isButton = Root === 'button';
  const names = [control.control, classes.root];
  if (variant !== 'filled') names.push(control[variant]);
  if (size !== 'sm') names.push(classes[size]);
  if (fullWidth) names.push(classes.block);
  if (className) names.push(className as string);
  return (
    <Root
      type={isButton ? 'button' : undefined}
      {...rest}
      disabled={loading || disabled}
      className={names.join(' ')}
      data-loading={loading || undefined}
    >
      <span className={classes.inner}>
        {leftSection && <span className={classes.section}>{leftSection}</span>}
        <span className={classes.label}>{children}</span>
        {rightSection && <span className={classes.section}>{rightSection}</span>}
      </span>
    </Root>
  );
}
