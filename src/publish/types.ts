// Options shared by the site renderers.
import type { SubscribeMode } from './_layout.js';
import type { ImageMap } from './item-images.js';

export interface SiteOptions {
  /** Absolute URL the site is served from (canonical links, Open Graph, feeds, sitemap). */
  baseUrl?: string;
  /** Newsletter name for the site header; defaults to the edition's own name. */
  siteName?: string;
  /** True when the site has feeds and search next to its pages (publishSite), false for a plain build. */
  fullSite?: boolean;
  /** Item images published with the site (fetchItemImages); without it no item shows an image. */
  images?: ImageMap;
  /** The subscribe form on every page: written in (true), or a slot `digest serve` fills ('slot'). */
  subscribe?: SubscribeMode;
}

export const DEFAULT_SITE_NAME = 'LLM News Digest';
