import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadScreens } from './app/router';
import { takeStartupQuery } from './app/startup-query';
import { fetchPublicConfig } from './config/public-config';
import { loadSession } from './features/auth/api/login-by-token';
import './styles/global.css';

const { sessionToken, cleanedUrl } = takeStartupQuery(new URL(window.location.href));
if (cleanedUrl) window.history.replaceState(window.history.state, '', cleanedUrl);

// Who is signed in is settled in the background; the guards send navigations to /loading meanwhile.
void loadSession(sessionToken);
void preloadScreens(window.location.pathname);
const config = await fetchPublicConfig();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
createRoot(rootElement).render(
  <StrictMode>
    <App config={config} />
  </StrictMode>,
);
