import { type Api, http } from './http';
import type { CarouselSlide, NewsItem, Policy } from './types';

export const getPolicy = (api: Api = http) => api<Policy>('/content/policy');

export const getCarousel = (api: Api = http) => api<CarouselSlide[]>('/content/carousel');

export const getNews = (api: Api = http) => api<NewsItem[]>('/telegram/news');
