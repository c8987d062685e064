import type { DownloadCenterProduct } from '@soundid/contracts';
import { text as coreText, downloadsText } from '@soundid/contracts/ui-text';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { useDownloadCenter } from '../api/get-download-center';
import { PlatformDownloads } from './platform-downloads';
import './download-center.css';

const text = downloadsText;

/**
 * /download-center (ADR 0046): for each product the customer holds or can try, the latest
 * installer per platform with its notes, size and SHA-256, and the older versions folded away.
 * Every Download link of the portal leads here, to the product's section (`#<product code>`).
 */
export function DownloadCenterScreen() {
  const center = useDownloadCenter();
  useScrollToProduct(center.data?.Products);
  return (
    <Page heading={coreText.nav.downloads} width="wide">
      <p className="download-center__intro">{text.intro}</p>
      {center.isPending && <Spinner label={text.loading} />}
      {center.isError && <FormMessage tone="error">{text.failed}</FormMessage>}
      {center.data &&
        (center.data.Products.length === 0 ? (
          <p>{text.none}</p>
        ) : (
          <ul className="download-center__products" aria-label={text.productsLabel}>
            {center.data.Products.map((product) => (
              <li key={product.Code}>
                <ProductDownloads product={product} />
              </li>
            ))}
          </ul>
        ))}
    </Page>
  );
}

function ProductDownloads({ product }: { product: DownloadCenterProduct }) {
  const headingId = `${product.Code}-heading`;
  return (
    <section id={product.Code} className="download-product" aria-labelledby={headingId}>
      <h2 id={headingId} className="download-product__heading" tabIndex={-1}>
        {product.DisplayName}
      </h2>
      <div className="download-product__platforms">
        {product.Platforms.map((platform) => (
          <PlatformDownloads key={platform.Platform} platform={platform} />
        ))}
      </div>
    </section>
  );
}

/**
 * A link to a product's section (`/download-center#voice-ai`, or `#SoundIDVoiceAI` from a
 * deeplink's product) lands on it once the list is there: the browser's own scroll to the anchor
 * comes before the section exists.
 */
function useScrollToProduct(products: readonly DownloadCenterProduct[] | undefined) {
  const { hash } = useLocation();
  useEffect(() => {
    const wanted = decodeURIComponent(hash.slice(1)).toLowerCase();
    if (!products || !wanted) return;
    const product = products.find((p) => p.Code === wanted || p.ProductName.toLowerCase() === wanted);
    const heading = product && document.getElementById(`${product.Code}-heading`);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [products, hash]);
}
