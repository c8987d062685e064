import { text } from '@soundid/contracts/ui-text';
import type { ReactNode } from 'react';
import { NotificationsRegion } from '../../components/notifications-region';
import { Footer } from './footer';
import { SupportChat } from './support-chat';
import { TopBar } from './top-bar';

export function Shell({ showSupportChat, children }: { showSupportChat: boolean; children: ReactNode }) {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {text.skipToContent}
      </a>
      <TopBar />
      <NotificationsRegion />
      <main id="main" className="shell__main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <SupportChat isVisible={showSupportChat} />
    </div>
  );
}
