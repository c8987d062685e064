import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A screen's frame: its heading, which takes the focus when the screen opens (a screen reader
 * hears where it is after a navigation), and the tab's title.
 */
export function Screen({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · SoundID console`;
    heading.current?.focus();
  }, [title]);
  return (
    <>
      <div className="screen-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </>
  );
}

/** A titled part of a screen (a landmark named by its heading). */
export function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
