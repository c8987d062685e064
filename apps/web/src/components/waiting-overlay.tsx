import { text } from '@soundid/contracts/ui-text';

export function WaitingOverlay({ label = text.loading }: { label?: string }) {
  return (
    <div className="waiting-overlay" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
