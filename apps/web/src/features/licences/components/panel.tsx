import { text } from '@soundid/contracts/ui-text';
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A panel of the page (devices, upgrade, removal, offline activation), opened by a toggle that
 * points at its id. Focus moves to its heading when it opens, which also scrolls it into view
 * when a reload reopens it from the URL hash. Escape or the close button closes it.
 */
export function Panel({
  id,
  heading,
  onClose,
  children,
}: {
  id: string;
  heading: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  // Closing hands the focus back to the toggle that opened the panel, as a menu's Escape does.
  const close = () => {
    const toggle = [...document.querySelectorAll<HTMLElement>('[aria-controls]')].find(
      (element) => element.getAttribute('aria-controls') === id,
    );
    onClose();
    toggle?.focus();
  };
  return (
    <section
      id={id}
      className="licence-panel"
      aria-labelledby={`${id}-heading`}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        event.preventDefault();
        close();
      }}
    >
      <header className="licence-panel__header">
        <h3 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="licence-panel__heading">
          {heading}
        </h3>
        <button type="button" className="licence-panel__close" aria-label={text.close} onClick={close}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {children}
    </section>
  );
}

/** The button that opens or closes a panel; it says which panel it controls and whether it is open. */
export function PanelToggle({
  panelId,
  isOpen,
  onToggle,
  size = 'small',
  children,
}: {
  panelId: string;
  isOpen: boolean;
  onToggle: () => void;
  /** Small in a card; regular beside the full-size buttons of a section's header. */
  size?: 'small' | 'regular';
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`button button--secondary ${size === 'small' ? 'button--small ' : ''}panel-toggle`}
      aria-expanded={isOpen}
      aria-controls={isOpen ? panelId : undefined}
      onClick={onToggle}
    >
      {children}
      <span className="panel-toggle__chevron" aria-hidden="true" />
    </button>
  );
}
