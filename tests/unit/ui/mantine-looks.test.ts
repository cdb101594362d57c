// The plain elements drawn with Mantine's looks carry its class names written out
// (src/ui/mantine-looks.ts): after an upgrade of Mantine that renames one, they would silently
// lose that look. Here they are held equal to the names Mantine's components use.
import { ActionIcon, Anchor, Button, Paper, Text, Title, UnstyledButton } from '@mantine/core';
import { describe, expect, test } from 'vitest';
import { MANTINE_CLASSES } from '../../../src/ui/mantine-looks';

describe('Mantine looks for plain elements', () => {
  test('carry the class names of Mantine’s own components', () => {
    expect(MANTINE_CLASSES).toEqual({
      paper: Paper.classes.root,
      text: Text.classes.root,
      title: Title.classes.root,
      anchor: Anchor.classes.root,
      unstyledButton: UnstyledButton.classes.root,
      button: Button.classes.root,
      buttonInner: Button.classes.inner,
      buttonLabel: Button.classes.label,
      buttonSection: Button.classes.section,
      actionIcon: ActionIcon.classes.root,
      actionIconIcon: ActionIcon.classes.icon,
    });
  });
});
