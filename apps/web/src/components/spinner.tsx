export function Spinner({ label }: { label: string }) {
  return (
    <p className="inline-spinner" role="status">
      <span className="spinner spinner--small" aria-hidden="true" />
      {label}
    </p>
  );
}
