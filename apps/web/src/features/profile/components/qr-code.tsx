import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code drawn here from its text (uqr), as SVG squares: the authenticator secret it carries
 * never leaves the browser for an image service (ADR 0037).
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const { data, size } = encode(value, { ecc: 'M', border: 2 });
    const squares: string[] = [];
    data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) squares.push(`M${x} ${y}h1v1h-1z`);
      });
    });
    return { size, path: squares.join('') };
  }, [value]);
  return (
    <svg className="qr-code" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
