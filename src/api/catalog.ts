import { http } from './http';
import type { Breadcrumbs, Product, Section, SectionRef, Selection } from './types';

export const getHomeProducts = () => http<Product[]>('/catalog/product');

export const getProduct = (id: number) => http<Product>(`/catalog/product_retrieve/${id}`);

export const searchProducts = (q: string, signal?: AbortSignal) =>
  http<Product[]>('/catalog/product_search', { query: { q }, signal });

export const getProductBreadcrumbs = (id: number) =>
  http<Breadcrumbs>(`/catalog/product_breadcrumbs/${id}`);

export const getHomeSections = () => http<SectionRef[]>('/catalog/section');

export const getRootSections = () => http<SectionRef[]>('/catalog/section_root');

export const getSection = (id: number) => http<Section>(`/catalog/section_retrieve/${id}`);

export const searchSections = (q: string, signal?: AbortSignal) =>
  http<SectionRef[]>('/catalog/section_search', { query: { q }, signal });

export const getSectionBreadcrumbs = (id: number) =>
  http<Breadcrumbs>(`/catalog/section_breadcrumbs/${id}`);

export const getSelections = () => http<Selection[]>('/catalog/selections');

export const getSelection = (id: number) => http<Selection>(`/catalog/selection_retrieve/${id}`);
