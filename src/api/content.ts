import { http } from './http';
import type { CarouselSlide, NewsItem, Policy } from './types';

export const getPolicy = () => http<Policy>('/content/policy');

export const getCarousel = () => http<CarouselSlide[]>('/content/carousel');

export const getNews = () => http<NewsItem[]>('/telegram/news');
