import { createContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered on the server (undefined in the
 * browser, where the scripts are already in the page). app/entry.server.tsx provides it.
 */
export const CspNonce = createContext<string | undefined>(undefined);

/**
 * The site's Content-Security-Policy: scripts only from the site itself and with this page's nonce
 * (React Router's inline scripts carry it), never inline otherwise; styles from the site (Tailwind's
 * inline style attributes allowed); pictures from the site and any web address (the back office shows
 * a story's picture where the story found it; the public pages serve their own), fonts and requests from the site only; no plugins, no framing
 * (the public pages may be framed by no one either), forms posting only to the site.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: http: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
