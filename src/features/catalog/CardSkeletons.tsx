import { Box, Card, Skeleton, Stack } from '@mantine/core';
import classes from './Card.module.css';

// Placeholders with the cards' own proportions: a square image, two name lines, the price,
// the stock line and the button, so the real cards take exactly their place.

export function ProductCardSkeleton() {
  return (
    <Card withBorder padding="sm" className={classes.card} aria-hidden>
      <Card.Section>
        <Skeleton radius={0} style={{ aspectRatio: '1 / 1' }} />
      </Card.Section>
      <Stack gap={4} mt="sm" flex={1}>
        <Box className={classes.name}>
          <Skeleton height={14} mt={4} width="90%" />
          <Skeleton height={14} mt={8} width="60%" />
        </Box>
        <Skeleton height={18} mt={3} mb={3} width="55%" />
        <Skeleton height={12} mt={4} mb={5} width="70%" />
      </Stack>
      <Skeleton height={36} mt="sm" />
    </Card>
  );
}

export function SectionCardSkeleton() {
  return (
    <Card withBorder padding="sm" className={classes.card} aria-hidden>
      <Card.Section>
        <Skeleton radius={0} style={{ aspectRatio: '1 / 1' }} />
      </Card.Section>
      <Box mt="sm" className={classes.name}>
        <Skeleton height={14} mt={4} width="80%" />
      </Box>
    </Card>
  );
}
