import type { ComponentPropsWithRef, CSSProperties, ReactNode } from 'react';
import classes from './TextInput.module.css';

interface TextInputProps extends Omit<
  ComponentPropsWithRef<'input'>,
  'className' | 'style' | 'size'
> {
  size?: 'sm' | 'md';
  /** Over the left edge, a unit: it takes no press. */
  leftSection?: ReactNode;
  /** Over the right edge, a button. */
  rightSection?: ReactNode;
  /** The width of the section, in px: the input's text keeps clear of it. */
  sectionWidth?: number;
  /** A short number in a narrow field. */
  centered?: boolean;
}

/**
 * The shop's bare text input, for the fields the home page and every card draw (the search line,
 * a basket line's amount): Mantine's Input look on a plain `input`, styled by
 * TextInput.module.css. Mantine's TextInput brings its label, description, error and wrapper
 * parts, 3.7 KB of gzip in the home page's first view; the forms, whose fields have labels and
 * errors, use it.
 */
export function TextInput({
  size = 'sm',
  leftSection,
  rightSection,
  sectionWidth,
  centered = false,
  ...input
}: TextInputProps) {
  const root = size === 'md' ? `${classes.root} ${classes.md}` : classes.root;
  const width = sectionWidth === undefined ? undefined : `${sectionWidth}px`;
  const style = {
    '--shop-input-start': leftSection ? width : undefined,
    '--shop-input-end': rightSection ? width : undefined,
  } as CSSProperties;
  return (
    <div className={root} style={style}>
      {leftSection && (
        <span className={`${classes.section} ${classes.left}`} aria-hidden>
          {leftSection}
        </span>
      )}
      <input
        type="text"
        {...input}
        className={centered ? `${classes.input} ${classes.centered}` : classes.input}
      />
      {rightSection && (
        <span className={`${classes.section} ${classes.right}`}>{rightSection}</span>
      )}
    </div>
  );
}
