import { StrictMode } from 'react';
import { App } from './app/app';
import { preloadScreens } from './app/router';
import { takeStartupQuery } from './app/startup-query';
import { readBootData } from './config/boot-data';
import { fetchPublicConfig, withFallbacks } from './config/public-config';
import { loadSession } from './features/auth/api/login-by-token';
import { captureErrors } from './lib/error-capture';
import { setAnonymous, setSignedInUser } from './lib/session';
import { createRoot, hydrateRoot } from './react-dom-start';
import './styles/index.css';

// First, so that what goes wrong from here on is reported (a sample of it, ADR 0026); the
// reporter itself loads after the page has.
captureErrors(() => import('./lib/error-reports'));

const { loginCode, cleanedUrl } = takeStartupQuery(new URL(window.location.href));
if (cleanedUrl) window.history.replaceState(window.history.state, '', cleanedUrl);

// The page the service wrote says what the start-up would otherwise ask it (ADR 0024): its
// configuration, and that no session cookie came with it (then nobody is signed in), or, with a
// screen rendered for a signed-in customer, who that is and the data the screen was drawn from.
const boot = readBootData(document);
// Who is signed in is settled in the background; the guards send navigations to /loading meanwhile.
// A desktop app's portal link signs in through its one-time code (ADR 0029).
if (loginCode) {
  void import('./features/auth/api/exchange-web-login-code').then(
    (exchange) => exchange.startWithLoginCode(loginCode),
    () => loadSession(),
  );
} else if (boot?.user) setSignedInUser(boot.user);
else if (boot?.signedOut) setAnonymous();
else void loadSession();
// A page that came rendered names its screen's modules, which the loader fetches (after-paint.ts).
// Any other page's are found in the route table, in a task of its own: this one evaluates every
// module the page starts with, the page's longest task, and the preload's route matching and link
// elements would lengthen it (ADR 0043 and its addenda).
if (!document.getElementById('app-loader')?.dataset.screen) setTimeout(preloadScreens, 0, window.location.pathname);
const config = boot ? withFallbacks(boot.config) : await fetchPublicConfig();
if (boot?.queries) (await import('./app/query-layout')).startPageQueries(boot.queries);

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App config={config} />
  </StrictMode>
);
// A screen the service rendered ahead is taken over where it stands; otherwise React draws it.
if (rootElement.firstChild) hydrateRoot(rootElement, app);
else createRoot(rootElement).render(app);
// From here a sent screen answers (React replays what it is handed before a part is hydrated);
// browser tests that use a sent screen's buttons before anything else wait for this.
document.documentElement.dataset.app = 'started';
