import { Stack } from '@mantine/core';
import type { CarouselSlide, Product, SectionRef, Selection } from '../../api/types';
import type { Load } from '../../ui/useLoads';
import { DeliveryInfo } from './DeliveryInfo';
import { HomeProducts, HomeSections } from './HomeBlocks';
import { HomeCarousel } from './HomeCarousel';
import { HomeSearch } from './HomeSearch';
import { SelectionBlocks } from './SelectionBlocks';
import classes from './HomePage.module.css';

interface HomePageProps {
  carousel: Load<CarouselSlide[]>;
  selections: Load<Selection[]>;
  sections: Load<SectionRef[]>;
  products: Load<Product[]>;
}

/** Spec §2, in its order: search, carousel, selections, delivery, then the shop's home blocks. */
export default function HomePage({ carousel, selections, sections, products }: HomePageProps) {
  return (
    <Stack gap={40}>
      <Stack gap="md">
        <h1 className={classes.title}>Свежие ягоды</h1>
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
