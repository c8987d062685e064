import { HOVER_MENU_CLOSE_DELAY_MS } from '@soundid/contracts';
import { type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

/**
 * A disclosure menu that opens on hover or click and closes 200 ms after the pointer leaves,
 * so that crossing the gap between button and panel does not close it.
 */
export function HoverMenu({ label, children }: { label: ReactNode; children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  // A click on a menu the pointer has just opened keeps it open instead of closing it again.
  const isOpenedByHover = useRef(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  const cancelClose = () => clearTimeout(closeTimer.current);
  const openOnHover = () => {
    cancelClose();
    if (!isOpen) isOpenedByHover.current = true;
    setOpen(true);
  };
  const toggleOnClick = () => {
    const stayOpen = isOpen && isOpenedByHover.current;
    isOpenedByHover.current = false;
    setOpen(stayOpen || !isOpen);
  };
  const closeSoon = () => {
    cancelClose();
    closeTimer.current = setTimeout(() => setOpen(false), HOVER_MENU_CLOSE_DELAY_MS);
  };

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering is a shortcut; the button opens the menu for keyboard and touch.
    <div
      className="hover-menu"
      onMouseEnter={openOnHover}
      onMouseLeave={closeSoon}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && isOpen) {
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="hover-menu__button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={toggleOnClick}
      >
        {label}
        <span className="hover-menu__chevron" aria-hidden="true" />
      </button>
      <div id={panelId} className="hover-menu__panel" hidden={!isOpen} onClickCapture={closeAfterLinkChoice(setOpen)}>
        {children}
      </div>
    </div>
  );
}

/** Choosing a link closes the menu it was in. */
export function closeAfterLinkChoice(setOpen: (isOpen: boolean) => void) {
  return (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a')) setOpen(false);
  };
}
