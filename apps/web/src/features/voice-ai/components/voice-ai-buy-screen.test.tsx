import type { StoreSettings, VoiceAiProductList } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../../../lib/browser-location';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { setTestCookie } from '../../../testing/reset-client-state';
import { SCREEN_TEST_TIMEOUT_MS } from '../../../testing/screen-timeout';
import { cartCreated, productWithVariant, storefrontStandIn } from '../../../testing/storefront-stand-in';

const trialButton = {
  Type: 'DeepLink' as const,
  ActionText: 'Start 7-day free trial',
  Functionality: 'AppStartTrial' as const,
  IsEnabled: true,
  ExternalRequest: {
    Type: 'DeepLink' as const,
    Url: 'soundid://starttrial?product=SoundIDVoiceAI',
    ServerAction: { Id: 'voice-ai-starttrial', Url: '/api/actions/trials/voice-ai/starttrial' },
  },
};

const bundle = (priceId: string, title: string, cents: number, extra: { flags?: string; newPrice?: string } = {}) => ({
  PriceId: priceId,
  PriceText: `$${(cents / 100).toFixed(2)}`,
  PriceAmount: cents / 100,
  PriceAmountInCents: cents,
  Currency: 'USD',
  Metadata: [
    { Key: 'Title', Value: title },
    { Key: 'Contents', Value: `${title} contents` },
    { Key: 'Description', Value: `${title} description` },
    { Key: 'UiFlags', Value: extra.flags ?? '' },
  ],
  PriceMetadata: extra.newPrice ? [{ Key: 'NewPriceText', Value: extra.newPrice }] : [],
});

const products = (change: Partial<VoiceAiProductList> = {}): VoiceAiProductList => ({
  ActionButtons: [trialButton],
  TokenBundles: [
    bundle('price_1k', 'Starter', 999),
    bundle('price_5k', 'Producer', 3999, { flags: 'Featured, IsMostPopular', newPrice: 'Save 20%' }),
  ],
  StripePublicKey: 'pk_sandbox_abc',
  CanStartTrial: true,
  StatusWarning: '1,000 tokens expire in 14 days.',
  TokenStatus: 'Your tokens: 1,250 (about 2 minutes of processing).',
  IsPerpetual: false,
  ExpiringTokens: [],
  ...change,
});

const sandboxStore: StoreSettings = {
  StoreDomain: 'localhost:3000',
  StorefrontAccessToken: 'sandbox-storefront-token',
  VoiceAiProductIds: ['gid://shopify/Product/1001'],
  ApiVersion: '2025-01',
  Sandbox: true,
};

const variant = {
  id: 'gid://shopify/ProductVariant/2001',
  price: { amount: '99.0', currencyCode: 'USD' },
  compareAtPrice: { amount: '149.0', currencyCode: 'USD' },
};

function api(change: Partial<VoiceAiProductList> = {}, store: StoreSettings = sandboxStore) {
  return mockApi({
    '/api/voiceai/GetProducts': ok(products(change)),
    '/api/shopify/store-settings': ok(store),
    '/api/actions/trials/voice-ai/starttrial': ok({
      Message: 'Trial activated successfully',
      TrialEndsAt: '/Date(1)/',
    }),
  });
}

const where = (router: ReturnType<typeof renderApp>['router']) =>
  router.state.location.pathname + router.state.location.search;

describe('voice AI buy page', { timeout: SCREEN_TEST_TIMEOUT_MS }, () => {
  it('shows the trial offer, the perpetual card, the token packs, the status and the footnotes', async () => {
    api();
    const storefront = storefrontStandIn(() => productWithVariant(variant));
    renderApp('/products/voice-ai', {
      user: testUser,
      config: { SupportChatScriptUrl: 'https://chat.example/widget.js' },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Perpetual or Pay-as-you-go' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('My SoundID | SoundID VoiceAI Tokens'));
    expect(document.documentElement.dataset.supportChat).toBe('hidden');
    expect(screen.getByRole('link', { name: '← Back to Licenses & Devices' })).toHaveAttribute('href', '/products');
    // The offer comes with the products' answer, which may land after the heading.
    expect(
      await screen.findByText('Start your seven-day free trial of SoundID VoiceAI. No credit card required.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Start 7-day free trial' })).toBeEnabled();

    const packs = screen.getByRole('list', { name: 'Token packs' });
    const cards = within(packs).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).queryByText('Most popular')).not.toBeInTheDocument();
    const producer = within(cards[1] as HTMLElement);
    expect(producer.getByRole('heading', { level: 3, name: 'Producer' })).toBeVisible();
    expect(producer.getByText('Most popular')).toBeVisible();
    expect(producer.getByText('Producer contents')).toBeVisible();
    expect(producer.getByText('Producer description')).toBeVisible();
    expect(producer.getByText('Save 20%')).toBeVisible();
    expect(producer.getByText(/\$39\.99/)).toBeVisible();
    expect(within(packs).getAllByRole('button', { name: 'Buy tokens' })).toHaveLength(2);

    // The token line reads once (ADR 0056): the page adds no label of its own.
    expect(screen.getByText('Your tokens: 1,250 (about 2 minutes of processing).')).toBeVisible();
    expect(screen.queryByText(/Your tokens: Your tokens/)).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('1,000 tokens expire in 14 days.');
    expect(
      screen.getByText(
        'Voice processing costs 10 tokens per second, with a minimum of 7 seconds, then one-second increments.',
      ),
    ).toBeVisible();
    expect(
      screen.getByText(
        'Tokens must be used within 12 months of purchase. The earliest purchased tokens are consumed first.',
      ),
    ).toBeVisible();

    // Perpetual mode: the first variant's price and struck-through compare-at price, from the storefront.
    const perpetual = screen.getByRole('region', { name: 'Perpetual mode' });
    await within(perpetual).findByText('$99.00');
    expect(within(perpetual).getByText('$149.00').closest('s')).not.toBeNull();
    expect(within(perpetual).getByText('Unlimited processing')).toBeVisible();
    expect(within(perpetual).getByRole('button', { name: 'Buy Perpetual mode' })).toBeEnabled();
    expect(storefront).toHaveLength(1);
    expect(storefront[0]?.url).toBe('/api/sandbox/shopify/api/2025-01/graphql.json');
    expect(storefront[0]?.headers.get('X-Shopify-Storefront-Access-Token')).toBe('sandbox-storefront-token');
    expect(storefront[0]?.variables).toEqual({ id: 'gid://shopify/Product/1001' });
    expect(storefront[0]?.query).toMatch(/variants\(first: 1\)/);
  });

  it('asks a real store on its own https domain; a euro price shows €', async () => {
    api(
      {},
      {
        StoreDomain: 'soundid.myshopify.com',
        StorefrontAccessToken: 'public-token',
        VoiceAiProductIds: ['7654321'],
        ApiVersion: '2025-01',
        Sandbox: false,
      },
    );
    const storefront = storefrontStandIn(() =>
      productWithVariant({ ...variant, price: { amount: '89.5', currencyCode: 'EUR' }, compareAtPrice: null }),
    );
    renderApp('/products/voice-ai', { user: testUser });
    const perpetual = await screen.findByRole('region', { name: 'Perpetual mode' });
    await within(perpetual).findByText('€89.50');
    expect(perpetual.querySelector('s')).toBeNull();
    expect(storefront[0]?.url).toBe('https://soundid.myshopify.com/api/2025-01/graphql.json');
    expect(storefront[0]?.headers.get('X-Shopify-Storefront-Access-Token')).toBe('public-token');
    // A numeric product id from the settings is asked for by its GID.
    expect(storefront[0]?.variables).toEqual({ id: 'gid://shopify/Product/7654321' });
  });

  it('Buy Perpetual mode: a one-line cart with the buyer e-mail, then its checkout URL', async () => {
    api();
    const leaveTo = vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    const storefront = storefrontStandIn((call) =>
      call.query.includes('cartCreate')
        ? cartCreated('http://localhost:3000/api/sandbox/shopify/checkouts/c1')
        : productWithVariant(variant),
    );
    const { user } = renderApp('/products/voice-ai', { user: testUser });
    const buy = await screen.findByRole('button', { name: 'Buy Perpetual mode' });
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('http://localhost:3000/api/sandbox/shopify/checkouts/c1'));
    expect(storefront[1]?.query).toMatch(/cartCreate\(input: \$input\)/);
    expect(storefront[1]?.variables).toEqual({
      input: {
        lines: [{ merchandiseId: 'gid://shopify/ProductVariant/2001', quantity: 1 }],
        buyerIdentity: { email: 'ada@example.com' },
      },
    });
  });

  it('storefront errors are logged and Buy Perpetual mode works again', async () => {
    api();
    const leaveTo = vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let carts = 0;
    storefrontStandIn((call) => {
      if (!call.query.includes('cartCreate')) return productWithVariant(variant);
      carts += 1;
      return carts === 1
        ? cartCreated('', [{ field: ['input'], message: 'Merchandise is sold out', code: 'INVALID' }])
        : { errors: [{ message: 'Throttled' }] };
    });
    const { user } = renderApp('/products/voice-ai', { user: testUser });
    const buy = await screen.findByRole('button', { name: 'Buy Perpetual mode' });
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    await waitFor(() => expect(logged).toHaveBeenCalledTimes(1));
    expect(String(logged.mock.calls[0]?.[1])).toMatch(/Merchandise is sold out/);
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    await waitFor(() => expect(logged).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(buy).toBeEnabled());
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('says when the perpetual price cannot be had', async () => {
    api();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    storefrontStandIn(() => ({ data: { product: null } }));
    renderApp('/products/voice-ai', { user: testUser });
    expect(await screen.findByText('Price not available right now.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Buy Perpetual mode' })).toBeDisabled();
  });

  it('the trial button runs the server action, then opens the activate screen with the deeplink', async () => {
    const calls = api();
    storefrontStandIn(() => productWithVariant(variant));
    const { router, user } = renderApp('/products/voice-ai', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Start 7-day free trial' }));
    await waitFor(() =>
      expect(where(router)).toBe(
        '/products/voice-ai/activate?deeplink=soundid%3A%2F%2Fstarttrial%3Fproduct%3DSoundIDVoiceAI&activationType=trial',
      ),
    );
    const action = calls.callsTo('starttrial');
    expect(action.map((c) => c.method)).toEqual(['GET']);
    expect(action[0]?.headers.get('Software')).toBeTruthy();
  });

  it('no trial offer once it cannot start', async () => {
    api({ CanStartTrial: false, ActionButtons: [], StatusWarning: null });
    storefrontStandIn(() => productWithVariant(variant));
    renderApp('/products/voice-ai', { user: testUser });
    await screen.findByRole('list', { name: 'Token packs' });
    expect(screen.queryByRole('button', { name: 'Start 7-day free trial' })).not.toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('a Perpetual owner sees the mode active, no Buy Perpetual mode, and their tokens with their expiry (ADR 0056)', async () => {
    const expiry = Date.UTC(2027, 2, 3, 12);
    api({
      CanStartTrial: false,
      ActionButtons: [],
      IsPerpetual: true,
      TokenStatus: 'Your tokens: 4,110 (about 6 minutes of processing).',
      ExpiringTokens: [{ Tokens: 1200, ExpiryDate: expiry }],
    });
    const storefront = storefrontStandIn(() => productWithVariant(variant));
    renderApp('/products/voice-ai', { user: testUser });
    const perpetual = await screen.findByRole('region', { name: 'Perpetual mode' });
    expect(within(perpetual).getByText('Perpetual mode is active')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Buy Perpetual mode' })).not.toBeInTheDocument();
    expect(screen.getByText('Your tokens: 4,110 (about 6 minutes of processing).')).toBeVisible();
    const expiring = screen.getByRole('list', { name: 'Tokens expiring soon' });
    expect(within(expiring).getByRole('listitem')).toHaveTextContent('1,200 tokens expire on 3 Mar 2027');
    // The store is not asked for a price the page does not show.
    expect(storefront).toHaveLength(0);
  });
});

/** The data layer's checkout events (page views and scroll depth are there too). */
const checkoutEvents = () =>
  (window.dataLayer ?? []).filter((entry) => (entry as { event: string }).event !== 'page_view');

describe('buying tokens', { timeout: SCREEN_TEST_TIMEOUT_MS }, () => {
  const prepared = {
    CheckoutSession: 'cs_sandbox_abc_secret_def',
    InvoiceTag: 'inv_tag_123',
    StripePublicKey: 'pk_sandbox_abc',
    TokenBundle: { SKU: 'price_5k', Title: 'Producer', Currency: 'USD', PriceAmountInCents: 3999 },
  };

  it('prepares with the analytics cookies, pushes begin_checkout and opens the checkout screen', async () => {
    setTestCookie('_ga', 'GA1.1.123.456');
    setTestCookie('affiliate_id', 'partner-7');
    setTestCookie('unrelated', 'x');
    window.dataLayer = [];
    let release: () => void = () => undefined;
    const calls = mockApi({
      '/api/voiceai/GetProducts': ok(products()),
      '/api/shopify/store-settings': ok(sandboxStore),
      '/api/voiceai/PrepareTokenPurchaseCheckout': () =>
        new Promise((resolve) => {
          release = () => resolve(ok(prepared));
        }),
      '/api/sandbox/checkout/session': ok({
        InvoiceTag: 'inv_tag_123',
        TokenBundle: prepared.TokenBundle,
        PriceText: '$39.99',
        Email: 'ada@example.com',
        Status: 'open',
        TestCards: {
          succeeds: '4242424242424242',
          declined: '4000000000000002',
          insufficientFunds: '4000000000009995',
        },
      }),
    });
    storefrontStandIn(() => productWithVariant(variant));
    const { router, user } = renderApp('/products/voice-ai', {
      user: testUser,
      config: { MainHost: window.location.host },
    });
    const buttons = await screen.findAllByRole('button', { name: 'Buy tokens' });
    await user.click(buttons[1] as HTMLElement);

    // While the checkout is prepared every Buy tokens button waits.
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Buy tokens' }).every((b) => b.hasAttribute('disabled'))).toBe(true),
    );
    expect(calls.callsTo('PrepareTokenPurchaseCheckout')[0]?.body).toEqual({
      priceId: 'price_5k',
      metadata: [
        { Key: '_ga', Value: 'GA1.1.123.456' },
        { Key: 'affiliate_id', Value: 'partner-7' },
      ],
    });
    release();

    await waitFor(() => expect(router.state.location.pathname).toBe('/products/checkout'));
    expect(router.state.location.state).toEqual({
      stripePublicKey: 'pk_sandbox_abc',
      checkoutSessionClientSecret: 'cs_sandbox_abc_secret_def',
      invoiceTag: 'inv_tag_123',
      tokenBundle: prepared.TokenBundle,
    });
    expect(checkoutEvents()).toEqual([
      {
        event: 'begin_checkout',
        ecommerce: {
          currency: 'USD',
          value: 39.99,
          items: [{ item_id: 'price_5k', item_name: 'Producer', item_category: 'One-off', price: 39.99, quantity: 1 }],
        },
      },
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Purchase tokens' })).toBeVisible();
  });

  it('sends a return URL off the main host; a fault re-enables the buttons and pushes nothing', async () => {
    window.dataLayer = [];
    const calls = mockApi({
      '/api/voiceai/GetProducts': ok(products()),
      '/api/shopify/store-settings': ok(sandboxStore),
      '/api/voiceai/PrepareTokenPurchaseCheckout': fault('CheckoutUnavailable', { ExceptionCode: 503 }),
    });
    storefrontStandIn(() => productWithVariant(variant));
    const { router, user } = renderApp('/products/voice-ai', {
      user: testUser,
      config: { MainHost: 'my.soundid.com' },
    });
    const [first] = await screen.findAllByRole('button', { name: 'Buy tokens' });
    await user.click(first as HTMLElement);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Payment gateway initialization failed. Please try again.',
    );
    expect(calls.callsTo('PrepareTokenPurchaseCheckout')[0]?.body).toEqual({
      priceId: 'price_1k',
      metadata: [],
      returnUrl: `${window.location.origin}/products/post-checkout`,
    });
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Buy tokens' }).every((b) => !b.hasAttribute('disabled'))).toBe(
        true,
      ),
    );
    expect(router.state.location.pathname).toBe('/products/voice-ai');
    expect(checkoutEvents()).toEqual([]);
  });
});
