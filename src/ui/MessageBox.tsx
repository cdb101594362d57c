import type { ComponentPropsWithoutRef, CSSProperties, ReactNode } from 'react';
import classes from './MessageBox.module.css';

interface MessageBoxProps extends Omit<ComponentPropsWithoutRef<'div'>, 'title'> {
  color: 'red' | 'blue' | 'green';
  icon: ReactNode;
  title?: string;
}

/** A message in a tinted box with an icon: an error (role alert) or a note (role status). */
export function MessageBox({ color, icon, title, children, style, ...rest }: MessageBoxProps) {
  const colors = {
    '--message-background': `var(--mantine-color-${color}-light)`,
    '--message-accent': `var(--mantine-color-${color}-light-color)`,
  } as CSSProperties;
  return (
    <div {...rest} className={classes.root} style={{ ...colors, ...style }}>
      <span className={classes.icon}>{icon}</span>
      <div>
        {title && <p className={classes.title}>{title}</p>}
        {children}
      </div>
    </div>
  );
}
