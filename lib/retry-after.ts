/**
 * How long a Retry-After header asks to wait, in ms (RFC 9110 10.2.3): delta seconds, or an HTTP
 * date measured from `now` (0 once it has passed); null when there is no header or it says nothing
 * readable.
 */
export function retryAfterMs(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
