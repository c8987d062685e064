const loading = new Map<string, { script: HTMLScriptElement; promise: Promise<void> }>();

/**
 * Adds a third-party script once; later calls share the first load. A script that was taken out
 * of the page (a test's fresh page, an extension, a failed load) is added again.
 */
export function loadScript(src: string): Promise<void> {
  const existing = loading.get(src);
  if (existing?.script.isConnected) return existing.promise;
  const script = document.createElement('script');
  const promise = new Promise<void>((resolve, reject) => {
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading.delete(src);
      script.remove();
      reject(new Error(`Could not load ${src}`));
    };
  });
  loading.set(src, { script, promise });
  document.head.append(script);
  return promise;
}
