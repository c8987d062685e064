import { pageTitle } from '@soundid/contracts';
import { useEffect } from 'react';

/** 'My SoundID | …' from the titles of the matched routes; returns it. */
export function usePageTitle(titles: readonly string[]): string {
  const title = pageTitle(titles);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return title;
}
