import { Stack, Title } from '@mantine/core';
import { DeliveryInfo } from './DeliveryInfo';
import { HomeProducts, HomeSections } from './HomeBlocks';
import { HomeCarousel } from './HomeCarousel';
import { HomeSearch } from './HomeSearch';
import { SelectionBlocks } from './SelectionBlocks';

/** Spec §2, in its order: search, carousel, selections, delivery, then the shop's home blocks. */
export default function HomePage() {
  return (
    <Stack gap={40}>
      <Stack gap="md">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          Свежие ягоды
        </Title>
        <HomeSearch />
        <HomeCarousel />
      </Stack>
      <SelectionBlocks />
      <DeliveryInfo />
      <HomeSections />
      <HomeProducts />
    </Stack>
  );
}
