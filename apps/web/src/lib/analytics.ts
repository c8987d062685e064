/**
 * The analytics data layer (docs/requirements.md §7): events are pushed to `window.dataLayer`, which the tag
 * manager of the marketing site reads when it is on the page; without it they wait there.
 */
export type DataLayerEvent = { event: string } & Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export function pushDataLayer(event: DataLayerEvent): void {
  window.dataLayer ??= [];
  window.dataLayer.push(event);
}
