import { pageTitle } from '@soundid/contracts';
import { useEffect } from 'react';

/** 'My SoundID | …' from the titles of the matched routes. */
export function usePageTitle(titles: readonly string[]): void {
  const title = pageTitle(titles);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
