import { licencesTitles, text, titles, voiceAiBuyTitles } from '@soundid/contracts/ui-text';
import { type ComponentType, lazy, type ReactElement } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import { WaitingOverlay } from '../components/waiting-overlay';
import { RootRedirect } from './root-redirect';
import { anonymousOnly, everyone, type RouteHandle } from './route-handle';

const signedIn: RouteHandle['access'] = { allowAnonymousUser: false, allowAuthenticatedUser: true };

function handle(value: RouteHandle): RouteHandle {
  return value;
}

const screenLoaders = new WeakMap<ReactElement, () => Promise<unknown>>();

/** A screen whose module is fetched the first time its route renders (or is preloaded). */
function lazyScreen<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name): ReactElement {
  const Screen = lazy<ComponentType>(() => load().then((module) => ({ default: module[name] as ComponentType })));
  const element = <Screen />;
  screenLoaders.set(element, load);
  return element;
}

/**
 * The route table of docs/requirements.md §2 (declarative React Router: its data router would add 15 KiB gzip to
 * /login, ADR 0020). The guards, titles and shell come from `handle`, applied by AppLayout around
 * the matched screen. Screens load on demand so that /login carries only its own code.
 */
export const appRoutes: RouteObject[] = [
  { index: true, element: <RootRedirect />, handle: handle({ access: everyone }) },
  { path: 'auth', element: <Navigate to="/login" replace />, handle: handle({ access: everyone }) },
  {
    path: ':target?/login',
    handle: handle({ title: titles.login, access: anonymousOnly, kind: 'login' }),
    element: lazyScreen(() => import('../features/auth/components/login-screen'), 'LoginScreen'),
  },
  {
    path: 'loading',
    element: <WaitingOverlay />,
    handle: handle({ title: titles.loading, access: everyone, kind: 'loading', hideShell: true, untracked: true }),
  },
  {
    path: '*',
    handle: handle({ title: titles.notFound, access: everyone, untracked: true }),
    element: lazyScreen(() => import('./not-found-screen'), 'NotFoundScreen'),
  },
  {
    // Every screen but /login reads or writes through TanStack Query: its provider comes with them.
    element: lazyScreen(() => import('./query-layout'), 'QueryLayout'),
    children: [
      {
        path: 'logout',
        handle: handle({ title: titles.logout, access: everyone, hideShell: true }),
        element: lazyScreen(() => import('../features/auth/components/logout-screen'), 'LogoutScreen'),
      },
      {
        path: 'signup',
        handle: handle({ title: titles.signup, access: anonymousOnly }),
        element: lazyScreen(() => import('../features/auth/components/signup-screen'), 'SignupScreen'),
      },
      {
        path: 'reset-password/:token?',
        handle: handle({ title: titles.resetPassword, access: anonymousOnly }),
        element: lazyScreen(() => import('../features/auth/components/reset-password-screen'), 'ResetPasswordScreen'),
      },
      {
        path: 'delete-account/:token?',
        handle: handle({ title: titles.deleteAccount, access: everyone }),
        element: lazyScreen(() => import('../features/auth/components/delete-account-screen'), 'DeleteAccountScreen'),
      },
      {
        path: 'verify-email/:token?',
        handle: handle({ title: titles.verifyEmail, access: everyone }),
        element: lazyScreen(() => import('../features/auth/components/verify-email-screen'), 'VerifyEmailScreen'),
      },
      {
        path: 'verify-email-change/:token?',
        handle: handle({ title: titles.verifyEmailChange, access: everyone }),
        element: lazyScreen(
          () => import('../features/auth/components/verify-email-change-screen'),
          'VerifyEmailChangeScreen',
        ),
      },
      {
        // A new-device mail's "This wasn't me" link (ADR 0041).
        path: 'report-sign-in/:token?',
        handle: handle({ title: titles.reportSignIn, access: everyone }),
        element: lazyScreen(() => import('../features/auth/components/report-sign-in-screen'), 'ReportSignInScreen'),
      },
      {
        path: 'sidr5-thank-you',
        handle: handle({ title: titles.trialThankYou, access: signedIn }),
        element: lazyScreen(
          () => import('../features/campaign/components/trial-thank-you-screen'),
          'TrialThankYouScreen',
        ),
      },
      {
        path: 'adam-audio',
        handle: handle({ title: titles.adamAudio, access: signedIn }),
        element: lazyScreen(() => import('../features/campaign/components/adam-audio-screen'), 'AdamAudioScreen'),
      },
      {
        path: 'profile',
        handle: handle({ title: titles.profile, access: signedIn }),
        children: [
          {
            index: true,
            element: lazyScreen(() => import('../features/profile/components/profile-screen'), 'ProfileScreen'),
          },
          {
            path: 'set-password',
            handle: handle({ title: titles.setPassword }),
            element: lazyScreen(
              () => import('../features/profile/components/set-password-screen'),
              'SetPasswordScreen',
            ),
          },
        ],
      },
      { path: 'soundid-reference', element: <Navigate to="/products" replace />, handle: handle({ access: signedIn }) },
      {
        path: 'products',
        handle: handle({ title: titles.products, access: signedIn }),
        element: lazyScreen(() => import('../features/licences/components/products-screen'), 'ProductsScreen'),
      },
      {
        path: 'products/transactions',
        handle: handle({ title: titles.transactions, access: signedIn, hideSupportChat: true }),
        element: lazyScreen(
          () => import('../features/voice-ai/components/transaction-history-screen'),
          'TransactionHistoryScreen',
        ),
      },
      {
        path: 'products/post-checkout',
        handle: handle({ access: signedIn, hideSupportChat: true }),
        element: lazyScreen(() => import('../features/voice-ai/components/post-checkout-screen'), 'PostCheckoutScreen'),
      },
      // ── Voice AI buy page and card checkout (voice-buy) ──
      {
        path: 'products/voice-ai',
        handle: handle({ title: voiceAiBuyTitles.buyPage, access: signedIn, hideSupportChat: true }),
        element: lazyScreen(() => import('../features/voice-ai/components/voice-ai-buy-screen'), 'VoiceAiBuyScreen'),
      },
      {
        path: 'products/checkout',
        handle: handle({ access: signedIn, hideSupportChat: true }),
        element: lazyScreen(() => import('../features/voice-ai/components/checkout-screen'), 'CheckoutScreen'),
      },
      // ── end voice-buy ──
      {
        path: 'launch',
        handle: handle({ title: titles.launch, access: signedIn, kind: 'launch' }),
        element: lazyScreen(() => import('../features/launch/components/launch-screen'), 'LaunchScreen'),
      },
      {
        path: 'add-license',
        handle: handle({ title: titles.addLicense, access: signedIn }),
        element: lazyScreen(() => import('../features/licences/components/add-license-screen'), 'AddLicenseScreen'),
      },
      // Licenses & Devices: the voice AI activation page (licences-web)
      {
        path: 'products/voice-ai/activate',
        handle: handle({ title: licencesTitles.voiceAiActivate, access: signedIn, hideSupportChat: true }),
        element: lazyScreen(
          () => import('../features/voice-ai/components/voice-ai-activate-screen'),
          'VoiceAiActivateScreen',
        ),
      },
      // A licence offer's mailed link (docs/decisions/0054-licence-transfer.md): signed in, the sign-in page returns here.
      {
        path: 'license-transfer/:token',
        handle: handle({ title: licencesTitles.licenceTransfer, access: signedIn }),
        element: lazyScreen(
          () => import('../features/licences/components/licence-transfer-screen'),
          'LicenceTransferScreen',
        ),
      },
      { path: 'devices', element: <Navigate to="/soundid-reference" replace />, handle: handle({ access: signedIn }) },
      {
        // Every Download link of the portal leads here, to a product's section (ADR 0046). Its
        // title is the navigation's word: no new text on the first load (ADR 0020).
        path: 'download-center',
        handle: handle({ title: text.nav.downloads, access: signedIn }),
        element: lazyScreen(
          () => import('../features/downloads/components/download-center-screen'),
          'DownloadCenterScreen',
        ),
      },
      {
        path: ':target?/redirect',
        handle: handle({ title: titles.redirect, access: signedIn }),
        element: lazyScreen(() => import('../features/redirect/components/redirect-screen'), 'RedirectScreen'),
      },
    ],
  },
];

/** The loaders of the modules the routes at `pathname` load on demand (the layout's, then the screen's). */
export function routeModuleLoaders(pathname: string): (() => Promise<unknown>)[] {
  return (matchRoutes(appRoutes, pathname) ?? []).flatMap((match) => {
    const load = screenLoaders.get(match.route.element as ReactElement);
    return load ? [load] : [];
  });
}

/**
 * Fetches the modules of the screens at `pathname` (the layout and the screen at once), so that
 * the first screen does not wait for the start-up calls or for its layout's module first.
 */
export async function preloadScreens(pathname: string): Promise<void> {
  // A failure shows where React.lazy loads the module again.
  await Promise.all(routeModuleLoaders(pathname).map((load) => load())).catch(() => undefined);
}
