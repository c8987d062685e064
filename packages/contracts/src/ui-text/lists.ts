// Paged lists' words: apart from core.ts so that only the screens with lists load them (ADR 0020).

export const pagerText = {
  label: 'Pages',
  previous: 'Previous page',
  next: 'Next page',
  page: (n: number) => `Page ${n}`,
} as const;
