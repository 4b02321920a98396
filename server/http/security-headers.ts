import type { IncomingMessage, ServerResponse } from "node:http";

// Security headers on every answer, set first by the node handler (server/http/web.ts) so that pages
// answered from memory carry them as well as those rendered. The back office is never framed and
// never stored by a browser or proxy: its pages list e-mail addresses and unpublished stories.

/** Browser features no page of the site uses. */
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()";

/** The headers every answer carries, public pages included (the page cache writes them with its own). */
export function commonSecurityHeaders(options: { https: boolean }): [string, string][] {
  return [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Permissions-Policy", PERMISSIONS_POLICY],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ...(options.https ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]] : []),
  ];
}

export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse, options: { https: boolean }) {
  for (const [name, value] of commonSecurityHeaders(options)) res.setHeader(name, value);
  const path = (req.url ?? "/").split("?", 1)[0]!;
  if (path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin.")) {
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
    res.setHeader("Cache-Control", "private, no-store");
  } else if (path.startsWith("/api/auth/")) {
    res.setHeader("Cache-Control", "no-store");
  }
}
