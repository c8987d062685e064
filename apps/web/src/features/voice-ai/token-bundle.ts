import {
  type KeyValue,
  MOST_POPULAR_FLAG,
  NEW_PRICE_TEXT_KEY,
  type TokenBundle,
  TokenBundleMetadataKey,
} from '@soundid/contracts';

/** A token bundle of GetProducts as the buy page shows it (docs/requirements.md §2, Token packs list). */
export interface BundleView {
  priceId: string;
  title: string;
  contents: string;
  description: string;
  priceText: string;
  newPriceText: string | undefined;
  isMostPopular: boolean;
}

function metadataValue(list: KeyValue[], key: string): string | undefined {
  return list.find((entry) => entry.Key === key)?.Value;
}

export function bundleView(bundle: TokenBundle): BundleView {
  const flags = (metadataValue(bundle.Metadata, TokenBundleMetadataKey.UiFlags) ?? '').split(',').map((f) => f.trim());
  return {
    priceId: bundle.PriceId,
    title: metadataValue(bundle.Metadata, TokenBundleMetadataKey.Title) ?? bundle.PriceId,
    contents: metadataValue(bundle.Metadata, TokenBundleMetadataKey.Contents) ?? '',
    description: metadataValue(bundle.Metadata, TokenBundleMetadataKey.Description) ?? '',
    priceText: bundle.PriceText,
    newPriceText: metadataValue(bundle.PriceMetadata, NEW_PRICE_TEXT_KEY) || undefined,
    isMostPopular: flags.includes(MOST_POPULAR_FLAG),
  };
}
