import type { ElementType } from 'react';
import control from './Control.module.css';
import type { ControlProps } from './control-props.ts';
import classes from './IconButton.module.css';

export type IconButtonVariant = 'filled' | 'light' | 'subtle' | 'default';
/** Mantine's names: md 28 px, lg 34 px, input-sm 36 px, input-md 42 px. */
export type IconButtonSize = 'md' | 'lg' | 'input-sm' | 'input-md';

interface IconButtonLook {
  variant?: IconButtonVariant;
  size?: IconButtonSize;
  /** The colour of a light or subtle button other than the primary one. */
  color?: 'red' | 'gray';
  /** Its name: an icon alone says nothing to a screen reader. */
  'aria-label': string;
}

export type IconButtonProps<C extends ElementType = 'button'> = ControlProps<IconButtonLook, C>;

/**
 * The shop's button with an icon alone (and a link that looks so): Mantine's ActionIcon look on
 * plain elements, styled by IconButton.module.css and Control.module.css on Mantine's public
 * theme variables.
 */
export function IconButton<C extends ElementType = 'button'>({
  component,
  variant = 'filled',
  size = 'md',
  color,
  className,
  children,
  ...rest
}: IconButtonProps<C>) {
  const Root: ElementType = component ?? 'button';
  const names = [control.control, classes.root];
  if (variant !== 'filled') names.push(control[variant]);
  if (size !== 'md') names.push(classes[size]);
  if (color) names.push(classes[color]);
  if (className) names.push(className as string);
  return (
    <Root type={Root === 'button' ? 'button' : undefined} {...rest} className={names.join(' ')}>
      <span className={classes.icon}>{children}</span>
    </Root>
  );
}
