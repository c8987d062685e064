/** Offers text as a file download (the signed licence file) without leaving the page. */
export function saveTextFile(fileName: string, content: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the browser has taken the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
