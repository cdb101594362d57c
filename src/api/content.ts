import { getter } from './http';
import type { CarouselSlide, NewsItem, Policy } from './types';

export const getPolicy = getter<Policy>('/content/policy');

export const getCarousel = getter<CarouselSlide[]>('/content/carousel');

export const getNews = getter<NewsItem[]>('/telegram/news');
