import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter } from './app/router';
import { takeStartupQuery } from './app/startup-query';
import { fetchPublicConfig } from './config/public-config';
import { loadSession } from './features/auth/api/login-by-token';
import { createQueryClient } from './lib/react-query';
import './styles/global.css';

const { sessionToken, cleanedUrl } = takeStartupQuery(new URL(window.location.href));
if (cleanedUrl) window.history.replaceState(window.history.state, '', cleanedUrl);

// Who is signed in is settled in the background; the guards send navigations to /loading meanwhile.
void loadSession(sessionToken);
const config = await fetchPublicConfig();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
createRoot(rootElement).render(
  <StrictMode>
    <App config={config} router={createAppRouter()} queryClient={createQueryClient()} />
  </StrictMode>,
);
