import { PAGE_TITLE_PREFIX, PAGE_TITLE_SEPARATOR } from './constants';

/**
 * 'My SoundID | Title | Subtitle' from the matched routes' titles. A module of its own: the
 * shell needs it on every page, the formatters of format.ts only some screens (the /login
 * size budget, ADR 0020).
 */
export function pageTitle(titles: readonly (string | undefined)[]): string {
  return [PAGE_TITLE_PREFIX, ...titles.filter((t): t is string => Boolean(t))].join(PAGE_TITLE_SEPARATOR);
}
