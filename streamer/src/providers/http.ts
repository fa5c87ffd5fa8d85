/** HTTP plumbing shared by web-API providers. */

/** HTTP `Retry-After` (delay-seconds or an HTTP date) in milliseconds, or undefined. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
