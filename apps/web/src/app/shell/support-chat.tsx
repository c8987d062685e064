import { useEffect } from 'react';
import { usePublicConfig } from '../../config/public-config-context';
import { loadScript } from '../../lib/load-script';

/**
 * The support chat widget: its script loads the first time a route shows it, and only when the
 * deployment configures one. Hiding is a document attribute, because the widget draws its own
 * DOM outside React; shell.css hides the vendor's container while the attribute says so.
 */
export function SupportChat({ isVisible }: { isVisible: boolean }) {
  const { SupportChatScriptUrl } = usePublicConfig();
  useEffect(() => {
    if (!SupportChatScriptUrl) return;
    document.documentElement.dataset.supportChat = isVisible ? 'shown' : 'hidden';
    // The chat is optional: a script that fails to load leaves the page as it is.
    if (isVisible) void loadScript(SupportChatScriptUrl).catch(() => undefined);
  }, [SupportChatScriptUrl, isVisible]);
  return null;
}
