import { type Api, getter, http } from './http';
import type { Breadcrumbs, Product, Section, SectionRef, Selection } from './types';

export const getHomeProducts = getter<Product[]>('/catalog/product');

export const getProduct = (id: number, api: Api = http) =>
  api<Product>(`/catalog/product_retrieve/${id}`);

export const searchProducts = (q: string, signal?: AbortSignal, api: Api = http) =>
  api<Product[]>('/catalog/product_search', { query: { q }, signal });

export const getProductBreadcrumbs = (id: number, api: Api = http) =>
  api<Breadcrumbs>(`/catalog/product_breadcrumbs/${id}`);

export const getHomeSections = getter<SectionRef[]>('/catalog/section');

export const getRootSections = getter<SectionRef[]>('/catalog/section_root');

export const getSection = (id: number, api: Api = http) =>
  api<Section>(`/catalog/section_retrieve/${id}`);

export const searchSections = (q: string, signal?: AbortSignal, api: Api = http) =>
  api<SectionRef[]>('/catalog/section_search', { query: { q }, signal });

export const getSectionBreadcrumbs = (id: number, api: Api = http) =>
  api<Breadcrumbs>(`/catalog/section_breadcrumbs/${id}`);

export const getSelections = getter<Selection[]>('/catalog/selections');

export const getSelection = (id: number, api: Api = http) =>
  api<Selection>(`/catalog/selection_retrieve/${id}`);
