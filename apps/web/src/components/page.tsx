import type { ReactNode } from 'react';

/** A screen's frame: its one h1 and its content, narrow for forms. */
export function Page({
  heading,
  width = 'narrow',
  actions,
  children,
}: {
  heading: string;
  width?: 'narrow' | 'medium' | 'wide';
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className={`page page--${width}`} aria-labelledby="page-heading">
      <header className="page__header">
        <h1 id="page-heading" className="page__heading">
          {heading}
        </h1>
        {actions}
      </header>
      {children}
    </section>
  );
}
