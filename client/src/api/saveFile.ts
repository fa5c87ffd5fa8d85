import type { DownloadedFile } from './client.ts';

/** Hands a downloaded file to the browser's downloads, under its server name or `fallbackName`. */
export function saveFile({ blob, fileName }: DownloadedFile, fallbackName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the object URL after the click returns: let it go a little later.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
