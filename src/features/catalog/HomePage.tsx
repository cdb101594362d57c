import { Stack, Title } from '@mantine/core';
import { useRouteData } from '../../ui/route';
import { DeliveryInfo } from './DeliveryInfo';
import { HomeProducts, HomeSections } from './HomeBlocks';
import { HomeCarousel } from './HomeCarousel';
import { homeRoute } from './home-route';
import { HomeSearch } from './HomeSearch';
import { SelectionBlocks } from './SelectionBlocks';

/** Spec §2, in its order: search, carousel, selections, delivery, then the shop's home blocks. */
export default function HomePage() {
  const { carousel, selections, sections, products } = useRouteData(homeRoute);
  return (
    <Stack gap={40}>
      <Stack gap="md">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          Свежие ягоды
        </Title>
        <HomeSearch />
        <HomeCarousel state={carousel} />
      </Stack>
      <SelectionBlocks state={selections} />
      <DeliveryInfo />
      <HomeSections state={sections} />
      <HomeProducts state={products} />
    </Stack>
  );
}
