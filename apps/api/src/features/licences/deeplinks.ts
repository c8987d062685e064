import type { Product } from './catalogue';

/**
 * Deeplinks that open a desktop app (`<scheme>://<verb>?product=<ProductName>`), and the GET
 * action URLs under /api/actions/ that the portal's buttons call (ADR 0006).
 */
export class Deeplinks {
  constructor(private readonly scheme: string) {}

  private link(verb: string, product: Product): string {
    return `${this.scheme}://${verb}?product=${encodeURIComponent(product.productName)}`;
  }

  /** Opens the app to activate this device (activation type normal). */
  activate(product: Product): string {
    return this.link('activate', product);
  }

  /** Opens the app to start the product's trial on this device (activation type trial). */
  startTrial(product: Product): string {
    return this.link('starttrial', product);
  }
}

export const actionUrls = {
  deactivateDevice: (deviceId: string) => `/api/actions/devices/${deviceId}/deactivate`,
  removeLicense: (keyId: string) => `/api/actions/licenses/${keyId}/remove`,
  startTrial: (product: Product) => `/api/actions/trials/${product.code}/starttrial`,
  activate: (product: Product) => `/api/actions/products/${product.code}/activate`,
  removePerpetual: (keyId: string) => `/api/actions/voice-ai/perpetual/${keyId}/remove`,
  removeAssetPack: (keyId: string) => `/api/actions/voice-ai/asset-packs/${keyId}/remove`,
};

/** Server action ids: the portal infers the activation type from 'starttrial' or 'activate'. */
export const serverActionIds = {
  startTrial: (product: Product) => `${product.code}-starttrial`,
  activate: (product: Product) => `${product.code}-activate`,
};
