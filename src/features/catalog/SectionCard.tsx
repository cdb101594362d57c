import { Card, Group, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'wouter';
import type { SectionRef } from '../../api/types';
import { ImageWithPlaceholder } from '../../ui/ImageWithPlaceholder';
import classes from './Card.module.css';

const IMAGE_SIZE = 300;

/** A section in a grid or a carousel: its image and name; the whole card links to it. */
export function SectionCard({
  section,
  imageSizes,
  eager = false,
}: {
  section: SectionRef;
  /** How wide the card's layout shows it (src/ui/image-sizes.ts). */
  imageSizes: string;
  eager?: boolean;
}) {
  return (
    <Card
      component={Link}
      href={`/section/${section.id}`}
      withBorder
      padding="sm"
      className={`${classes.card} ${classes.sectionCard}`}
      data-testid="section-card"
    >
      <Card.Section>
        <ImageWithPlaceholder
          src={section.image}
          alt=""
          width={IMAGE_SIZE}
          height={IMAGE_SIZE}
          sizes={imageSizes}
          eager={eager}
        />
      </Card.Section>
      <Text fw={600} mt="sm" lineClamp={2} className={classes.name}>
        {section.name}
      </Text>
      {/* Beside product cards the card stretches to their height; the hint fills its foot. */}
      <Group gap={2} mt="auto" pt="sm" c="var(--mantine-color-anchor)" aria-hidden>
        <Text size="sm" fw={500} c="inherit">
          Открыть раздел
        </Text>
        <IconChevronRight size={16} />
      </Group>
    </Card>
  );
}
