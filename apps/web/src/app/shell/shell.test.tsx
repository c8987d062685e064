import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { FALLBACK_CONFIG } from '../../config/public-config';
import { PublicConfigContext } from '../../config/public-config-context';
import { testUser } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';
import { HoverMenu } from './hover-menu';
import { SupportChat } from './support-chat';

describe('shell', () => {
  it('closes a hover menu 200 ms after the pointer leaves, not before', () => {
    vi.useFakeTimers();
    render(
      <HoverMenu label="Support">
        <a href="/help">Help</a>
      </HoverMenu>,
    );
    const button = screen.getByRole('button', { name: 'Support' });
    const menu = button.parentElement as HTMLElement;
    fireEvent.mouseEnter(menu);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    fireEvent.mouseLeave(menu);
    act(() => vi.advanceTimersByTime(199));
    expect(button).toHaveAttribute('aria-expanded', 'true');
    act(() => vi.advanceTimersByTime(1));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('locks body scrolling while the mobile menu is open', async () => {
    const { user } = renderApp('/profile', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(document.body).toHaveClass('is-scroll-locked');
    await user.keyboard('{Escape}');
    expect(document.body).not.toHaveClass('is-scroll-locked');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
  });

  it('lists each link of the mobile menu once', async () => {
    const { user } = renderApp('/profile', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const menu = document.querySelector('.mobile-menu__panel') as HTMLElement;
    const links = [...menu.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links.filter((href) => href === '/profile')).toHaveLength(1);
    expect(links).toContain('/logout');
  });

  it('keeps the page behind the open mobile menu out of reach of the keyboard', async () => {
    const { user } = renderApp('/profile', { user: testUser });
    // The shell is there once its menu button is (the first render of a run loads the screens).
    const open = await screen.findByRole('button', { name: 'Open menu' });
    const main = document.querySelector<HTMLElement>('.shell__main') as HTMLElement;
    const footer = document.querySelector<HTMLElement>('.footer') as HTMLElement;
    await user.click(open);
    expect(main.inert).toBe(true);
    expect(footer.inert).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(main.inert).toBe(false);
    expect(footer.inert).toBe(false);
  });

  it('closes the mobile menu, and unlocks scrolling, when the screen grows past the small-screen width', async () => {
    const listeners: (() => void)[] = [];
    const query = {
      matches: true,
      addEventListener: (_: string, f: () => void) => listeners.push(f),
      removeEventListener: () => {},
    };
    vi.stubGlobal('matchMedia', () => query);
    try {
      const { user } = renderApp('/profile', { user: testUser });
      await user.click(await screen.findByRole('button', { name: 'Open menu' }));
      expect(document.body).toHaveClass('is-scroll-locked');
      query.matches = false;
      act(() => {
        for (const listener of listeners) listener();
      });
      expect(document.body).not.toHaveClass('is-scroll-locked');
      expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('loads the support chat only when configured, and hides it where the route says so', () => {
    const renderChat = (isVisible: boolean, url?: string) => (
      <PublicConfigContext value={{ ...FALLBACK_CONFIG, SupportChatScriptUrl: url }}>
        <MemoryRouter>
          <SupportChat isVisible={isVisible} />
        </MemoryRouter>
      </PublicConfigContext>
    );
    const { rerender } = render(renderChat(true));
    expect(document.querySelector('script[src*="chat"]')).toBeNull();
    rerender(renderChat(true, 'https://chat.example/widget.js'));
    expect(document.querySelector('script[src="https://chat.example/widget.js"]')).not.toBeNull();
    expect(document.documentElement.dataset.supportChat).toBe('shown');
    rerender(renderChat(false, 'https://chat.example/widget.js'));
    expect(document.documentElement.dataset.supportChat).toBe('hidden');
  });
});
