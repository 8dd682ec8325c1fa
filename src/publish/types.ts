// Options shared by the site renderers.

import type { Edition } from '../core/types.js';
import type { PageLocale, SubscribeMode } from './_layout.js';
import type { ImageMap } from './item-images.js';
import type { SiteLook } from './site-policy.js';

/** Counted links on the site (analytics.site): an item's link of an edition through the service's /r/ redirect. */
export type SiteCountedLink = (edition: Edition, itemKey: string) => string;

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
  /** The language section the pages are in, for a site in several languages (publishSite); unset: English. */
  locale?: SiteLocale;
  /** Counted links (analytics.site): the edition pages' item links through /r/; unset: the items' own links. */
  countedLink?: SiteCountedLink | undefined;
  /** publish.identity's accent colour and logo on every page. */
  look?: SiteLook | undefined;
}

/** An edition page's options: the site's, and for an earlier revision's page which one it is. */
export interface EditionPageOptions extends SiteOptions {
  /** An earlier revision's page (`<date>-r<n>/`): which revision it is and the current one, for its banner. */
  supersededBy?: { revision: number; current: number };
}

/** One language's section of the site. */
export interface SiteLocale {
  /** The pages' language (`<html lang>`); default English. */
  language?: string;
  /** Configured languages: the subscribe form offers a choice when there are several. */
  languages?: readonly string[];
  /** The other language versions of a page, by its path in the section ("2026-05-04/", ""): hreflang links. */
  alternates?: (path: string) => PageAlternate[];
  /** From an edition page to the site's shared img/ folder: "../", or "../../" in a language section. */
  assetRoot?: string;
  /** The language section's folder ("de/"), none at the root: its pages post the subscribe form to the site root. */
  section?: string;
}

/** One language version of a page. */
export interface PageAlternate {
  language: string;
  href: string;
}

/** The locale every page of a section passes to renderPage for its language. */
export function pageLanguage(options: SiteOptions, path: string | null): PageLocale {
  const locale = options.locale ?? {};
  return {
    ...(locale.language ? { language: locale.language } : {}),
    ...(locale.languages ? { languages: locale.languages } : {}),
    ...(locale.alternates && path !== null ? { alternates: locale.alternates(path) } : {}),
    ...(locale.section ? { section: locale.section } : {}),
  };
}

export const DEFAULT_SITE_NAME = 'LLM News Digest';
