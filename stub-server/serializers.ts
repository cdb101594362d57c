// Stored records -> the exact shapes of src/api/types.ts, plus the catalogue look-ups.
import type {
  BasketEntry,
  Breadcrumbs,
  Order,
  Product,
  Section,
  SectionRef,
  Selection,
} from '../src/api/types.ts';
import type { StoredOrder, StoredProduct, StoredSection, StoredSelection, StubData } from './db.ts';
import { notFound } from './http.ts';

export const toProduct = (product: StoredProduct): Product => ({
  id: product.id,
  name: product.name,
  image: product.image,
  unit: product.unit,
  unit_step: product.unit_step,
  price: product.price,
  rest: product.rest,
  available: product.available,
});

export const toSectionRef = (section: StoredSection): SectionRef => ({
  id: section.id,
  name: section.name,
  image: section.image,
});

export const toBasketEntry = (product: StoredProduct, amount: number): BasketEntry => ({
  product: toProduct(product),
  amount,
});

export const toOrder = (order: StoredOrder): Order => ({
  id: order.id,
  created_ts: order.created_ts,
  status: order.status,
  order_sum: order.order_sum,
  items: order.items.map((item) => ({
    id: item.id,
    amount: item.amount,
    price: item.price,
    product: { id: item.product.id, name: item.product.name, unit: item.product.unit },
  })),
});

export const findProduct = (data: StubData, id: number): StoredProduct | undefined =>
  data.products.find((product) => product.id === id);

export const findSection = (data: StubData, id: number): StoredSection | undefined =>
  data.sections.find((section) => section.id === id);

export function productOr404(data: StubData, id: number): StoredProduct {
  const product = findProduct(data, id);
  if (!product) throw notFound();
  return product;
}

export function sectionOr404(data: StubData, id: number): StoredSection {
  const section = findSection(data, id);
  if (!section) throw notFound();
  return section;
}

export function selectionOr404(data: StubData, id: number): StoredSelection {
  const selection = data.selections.find((candidate) => candidate.id === id);
  if (!selection) throw notFound();
  return selection;
}

/** Products by id in the given order, skipping ids that no longer exist. */
export function productsByIds(data: StubData, ids: number[]): Product[] {
  return ids.flatMap((id) => {
    const product = findProduct(data, id);
    return product ? [toProduct(product)] : [];
  });
}

export function sectionsByIds(data: StubData, ids: number[]): SectionRef[] {
  return ids.flatMap((id) => {
    const section = findSection(data, id);
    return section ? [toSectionRef(section)] : [];
  });
}

export function toSection(data: StubData, section: StoredSection): Section {
  return {
    ...toSectionRef(section),
    children: data.sections.filter((child) => child.parent_id === section.id).map(toSectionRef),
    products: data.products.filter((product) => product.section_id === section.id).map(toProduct),
  };
}

export function toSelection(data: StubData, selection: StoredSelection): Selection {
  return {
    id: selection.id,
    name: selection.name,
    description: selection.description,
    sections: sectionsByIds(data, selection.section_ids),
    products: productsByIds(data, selection.product_ids),
  };
}

/** Root-down path to the section, the section included. */
export function sectionCrumbs(data: StubData, sectionId: number): Breadcrumbs {
  const crumbs: Breadcrumbs = [];
  const seen = new Set<number>();
  let section = findSection(data, sectionId);
  while (section && !seen.has(section.id)) {
    seen.add(section.id);
    crumbs.unshift({ id: section.id, name: section.name });
    section = section.parent_id === null ? undefined : findSection(data, section.parent_id);
  }
  return crumbs;
}
