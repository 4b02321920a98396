/**
 * Whether a change comes from one of the site's own origins (CSRF): the request's Origin header is
 * present and one of `trusted` (Config.trustedOrigins). The one rule for the admin gate and for the
 * check the web server makes before it reads a body.
 */
export function isTrustedOrigin(origin: string | null | undefined, trusted: readonly string[]): boolean {
  return typeof origin === "string" && trusted.includes(origin);
}
