import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code drawn in the page from its text (uqr, as the portal draws its own): the
 * authenticator secret never goes to an image service.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, d } = useMemo(() => {
    const { data, size } = encode(value, { ecc: 'M', border: 2 });
    let d = '';
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) if (data[y]?.[x]) d += `M${x},${y}h1v1h-1z`;
    }
    return { size, d };
  }, [value]);
  return (
    <svg className="qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
