import { Group, Skeleton, Stack } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import type { Selection } from '../../api/types';
import {
  CARD_SLIDE_GAP,
  CARD_SLIDE_WIDTH,
  CAROUSEL_CARD_SIZES,
  CardCarousel,
} from '../../ui/CardCarousel';
import text from '../../ui/controls/Text.module.css';
import { Loaded } from '../../ui/Loaded';
import type { Load } from '../../ui/useLoads';
import { ProductCardSkeleton } from './CardSkeletons';
import { ProductCard } from './ProductCard';
import classes from './HomeBlocks.module.css';
import { LaterBlock } from './HomeBlocks';
import { SectionCard } from './SectionCard';
import { paths } from '../../lib/paths';
import { usePicturesAhead } from '../../ui/pictures-ahead';

const BLOCK_CLASS = `${classes.block} ${classes.selection}`;
const DESCRIPTION_CLASS = `${text.text} ${classes.description}`;
const LINK_CLASS = `${text.link} ${text.inherit}`;

/** Plain elements, as the home page's other blocks. */
function SelectionBlock({ selection }: { selection: Selection }) {
  const titleId = `selection-${selection.id}`;
  const block = useRef<HTMLElement>(null);
  usePicturesAhead(block);
  return (
    <section ref={block} className={BLOCK_CLASS} aria-labelledby={titleId}>
      <h2 className={text.title} id={titleId}>
        <Link href={paths.selection(selection.id)} className={LINK_CLASS}>
          <span className={classes.titleLink}>
            {selection.name}
            <IconChevronRight size={24} aria-hidden />
          </span>
        </Link>
      </h2>
      {selection.description && <p className={DESCRIPTION_CLASS}>{selection.description}</p>}
      {/* Named apart from the section around it: two landmarks with one name blur together. */}
      <CardCarousel label={`Товары подборки «${selection.name}»`}>
        {selection.sections.map((section) => (
          <SectionCard key={`s${section.id}`} section={section} imageSizes={CAROUSEL_CARD_SIZES} />
        ))}
        {selection.products.map((product) => (
          <ProductCard key={`p${product.id}`} product={product} imageSizes={CAROUSEL_CARD_SIZES} />
        ))}
      </CardCarousel>
    </section>
  );
}

function SelectionSkeleton() {
  return (
    <Stack gap="xs" aria-hidden>
      <Skeleton height={26} width={220} my={4} />
      <Skeleton height={14} width="70%" my={5} />
      <Group gap={CARD_SLIDE_GAP} wrap="nowrap" style={{ overflow: 'hidden' }}>
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} style={{ flex: `0 0 ${CARD_SLIDE_WIDTH}px` }}>
            <ProductCardSkeleton />
          </div>
        ))}
      </Group>
    </Stack>
  );
}

/** Spec §2: each selection's name (a link), its description and a carousel of its goods. */
export function SelectionBlocks({ state }: { state: Load<Selection[]> }) {
  return (
    <Loaded
      load={state}
      pending={
        <Stack gap={40} aria-busy="true" aria-label="Загрузка подборок">
          <SelectionSkeleton />
          <SelectionSkeleton />
        </Stack>
      }
    >
      {(selections) => (
        <Stack gap={40}>
          {selections.map((selection) => (
            <LaterBlock key={selection.id}>
              <SelectionBlock selection={selection} />
            </LaterBlock>
          ))}
        </Stack>
      )}
    </Loaded>
  );
}
