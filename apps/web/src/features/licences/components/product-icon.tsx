/** A product's icon by the list's icon name; unknown names get the generic mark. */
export function ProductIcon({ name }: { name: string }) {
  return (
    <svg className={`product-icon product-icon--${iconFamily(name)}`} viewBox="0 0 48 48" aria-hidden="true">
      <rect width="48" height="48" rx="12" />
      <path d={ICON_PATHS[iconFamily(name)]} />
    </svg>
  );
}

type Family = 'reference' | 'headphones' | 'legacy' | 'voice' | 'generic';

function iconFamily(name: string): Family {
  if (name.includes('voice')) return 'voice';
  if (name.includes('headphones')) return 'headphones';
  if (name.startsWith('reference-4')) return 'legacy';
  if (name.includes('reference')) return 'reference';
  return 'generic';
}

const ICON_PATHS: Record<Family, string> = {
  // A waveform: calibration.
  reference: 'M10 24h4l3-8 4 16 4-22 4 26 4-18 3 6h2',
  headphones: 'M13 30v-6a11 11 0 0 1 22 0v6M13 28h4v8h-4zM31 28h4v8h-4z',
  legacy: 'M28 12 16 28h16M28 12v24',
  // A microphone.
  voice: 'M24 10a5 5 0 0 1 5 5v9a5 5 0 0 1-10 0v-9a5 5 0 0 1 5-5zM15 24a9 9 0 0 0 18 0M24 33v5',
  generic: 'M14 24h20M24 14v20',
};
