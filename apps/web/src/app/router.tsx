import { licencesTitles, titles, voiceAiBuyTitles } from '@soundid/contracts/ui-text';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { WaitingOverlay } from '../components/waiting-overlay';
import { AppLayout } from './app-layout';
import { RootRedirect } from './root-redirect';
import { anonymousOnly, everyone, type RouteHandle } from './route-handle';

const signedIn: RouteHandle['access'] = { allowAnonymousUser: false, allowAuthenticatedUser: true };

function handle(value: RouteHandle): RouteHandle {
  return value;
}

/** The route table of spec §2. Screens load on demand so that /login carries only its own code. */
export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    hydrateFallbackElement: <WaitingOverlay />,
    children: [
      { index: true, element: <RootRedirect />, handle: handle({ access: everyone }) },
      { path: 'auth', element: <Navigate to="/login" replace />, handle: handle({ access: everyone }) },
      {
        path: ':target?/login',
        handle: handle({ title: titles.login, access: anonymousOnly, kind: 'login' }),
        lazy: () => import('../features/auth/components/login-screen').then((m) => ({ Component: m.LoginScreen })),
      },
      {
        path: 'logout',
        handle: handle({ title: titles.logout, access: everyone, hideShell: true }),
        lazy: () => import('../features/auth/components/logout-screen').then((m) => ({ Component: m.LogoutScreen })),
      },
      {
        path: 'signup',
        handle: handle({ title: titles.signup, access: anonymousOnly }),
        lazy: () => import('../features/auth/components/signup-screen').then((m) => ({ Component: m.SignupScreen })),
      },
      {
        path: 'reset-password/:token?',
        handle: handle({ title: titles.resetPassword, access: anonymousOnly }),
        lazy: () =>
          import('../features/auth/components/reset-password-screen').then((m) => ({
            Component: m.ResetPasswordScreen,
          })),
      },
      {
        path: 'delete-account/:token?',
        handle: handle({ title: titles.deleteAccount, access: everyone }),
        lazy: () =>
          import('../features/auth/components/delete-account-screen').then((m) => ({
            Component: m.DeleteAccountScreen,
          })),
      },
      {
        path: 'verify-email/:token?',
        handle: handle({ title: titles.verifyEmail, access: everyone }),
        lazy: () =>
          import('../features/auth/components/verify-email-screen').then((m) => ({ Component: m.VerifyEmailScreen })),
      },
      {
        path: 'verify-email-change/:token?',
        handle: handle({ title: titles.verifyEmailChange, access: everyone }),
        lazy: () =>
          import('../features/auth/components/verify-email-change-screen').then((m) => ({
            Component: m.VerifyEmailChangeScreen,
          })),
      },
      {
        path: 'sidr5-thank-you',
        handle: handle({ title: titles.trialThankYou, access: signedIn }),
        lazy: () =>
          import('../features/campaign/components/trial-thank-you-screen').then((m) => ({
            Component: m.TrialThankYouScreen,
          })),
      },
      {
        path: 'adam-audio',
        handle: handle({ title: titles.adamAudio, access: signedIn }),
        lazy: () =>
          import('../features/campaign/components/adam-audio-screen').then((m) => ({ Component: m.AdamAudioScreen })),
      },
      {
        path: 'profile',
        handle: handle({ title: titles.profile, access: signedIn }),
        children: [
          {
            index: true,
            lazy: () =>
              import('../features/profile/components/profile-screen').then((m) => ({ Component: m.ProfileScreen })),
          },
          {
            path: 'set-password',
            handle: handle({ title: titles.setPassword }),
            lazy: () =>
              import('../features/profile/components/set-password-screen').then((m) => ({
                Component: m.SetPasswordScreen,
              })),
          },
        ],
      },
      { path: 'soundid-reference', element: <Navigate to="/products" replace />, handle: handle({ access: signedIn }) },
      {
        path: 'products',
        handle: handle({ title: titles.products, access: signedIn }),
        lazy: () =>
          import('../features/licences/components/products-screen').then((m) => ({ Component: m.ProductsScreen })),
      },
      {
        path: 'products/transactions',
        handle: handle({ title: titles.transactions, access: signedIn, hideSupportChat: true }),
        lazy: () =>
          import('../features/voice-ai/components/transaction-history-screen').then((m) => ({
            Component: m.TransactionHistoryScreen,
          })),
      },
      {
        path: 'products/post-checkout',
        handle: handle({ access: signedIn, hideSupportChat: true }),
        lazy: () =>
          import('../features/voice-ai/components/post-checkout-screen').then((m) => ({
            Component: m.PostCheckoutScreen,
          })),
      },
      // ── Voice AI buy page and card checkout (voice-buy) ──
      {
        path: 'products/voice-ai',
        handle: handle({ title: voiceAiBuyTitles.buyPage, access: signedIn, hideSupportChat: true }),
        lazy: () =>
          import('../features/voice-ai/components/voice-ai-buy-screen').then((m) => ({
            Component: m.VoiceAiBuyScreen,
          })),
      },
      {
        path: 'products/checkout',
        handle: handle({ access: signedIn, hideSupportChat: true }),
        lazy: () =>
          import('../features/voice-ai/components/checkout-screen').then((m) => ({ Component: m.CheckoutScreen })),
      },
      // ── end voice-buy ──
      {
        path: 'launch',
        handle: handle({ title: titles.launch, access: signedIn, kind: 'launch' }),
        lazy: () => import('../features/launch/components/launch-screen').then((m) => ({ Component: m.LaunchScreen })),
      },
      {
        path: 'add-license',
        handle: handle({ title: titles.addLicense, access: signedIn }),
        lazy: () =>
          import('../features/licences/components/add-license-screen').then((m) => ({
            Component: m.AddLicenseScreen,
          })),
      },
      // Licenses & Devices: the voice AI activation page (licences-web)
      {
        path: 'products/voice-ai/activate',
        handle: handle({ title: licencesTitles.voiceAiActivate, access: signedIn, hideSupportChat: true }),
        lazy: () =>
          import('../features/voice-ai/components/voice-ai-activate-screen').then((m) => ({
            Component: m.VoiceAiActivateScreen,
          })),
      },
      { path: 'devices', element: <Navigate to="/soundid-reference" replace />, handle: handle({ access: signedIn }) },
      {
        path: ':target?/redirect',
        handle: handle({ title: titles.redirect, access: signedIn }),
        lazy: () =>
          import('../features/redirect/components/redirect-screen').then((m) => ({ Component: m.RedirectScreen })),
      },
      {
        path: 'loading',
        element: <WaitingOverlay />,
        handle: handle({ title: titles.loading, access: everyone, kind: 'loading', hideShell: true }),
      },
      {
        path: '*',
        handle: handle({ title: titles.notFound, access: everyone }),
        lazy: () => import('./not-found-screen').then((m) => ({ Component: m.NotFoundScreen })),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
