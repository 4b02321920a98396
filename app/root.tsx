import { useContext, useEffect } from "react";
import { preload } from "react-dom";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "react-router";
import type { Route } from "./+types/root";
import { CspNonce } from "./lib/csp";
import { isPublicPage, LOAD_SCRIPTS } from "./lib/deferred-scripts";
import stylesheet from "./app.css?url";
import displayFontExt from "./fonts/bricolage-grotesque-latin-ext.woff2?url";
import displayFont from "./fonts/bricolage-grotesque-latin.woff2?url";
import textFontExt from "./fonts/inter-latin-ext.woff2?url";
import textFont from "./fonts/inter-latin.woff2?url";
import { PublicStyle } from "./lib/public-style";
import { LATIN, LATIN_EXT, webFontsScript, type WebFontFace } from "./lib/web-fonts";

const DISPLAY = { family: "Bricolage Grotesque Variable", weight: "700 800" };
const TEXT = { family: "Inter Variable", weight: "400 900" };
/** The public pages' web fonts, declared by their inline script (app/lib/web-fonts.ts). */
const WEB_FONTS = webFontsScript([
  { ...DISPLAY, url: displayFont, unicodeRange: LATIN, eager: true },
  { ...DISPLAY, url: displayFontExt, unicodeRange: LATIN_EXT, eager: false },
  { ...TEXT, url: textFont, unicodeRange: LATIN, eager: true },
  { ...TEXT, url: textFontExt, unicodeRange: LATIN_EXT, eager: false },
] satisfies WebFontFace[]);

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/logo.svg", type: "image/svg+xml" }];

/**
 * The page's styles as a React resource (`precedence`), written at the top of <head>: on a public
 * page its own classes, in the page itself (app/public.css, from app/entry.server.tsx), so that the
 * first paint waits for no stylesheet; on any other page the whole stylesheet. In the browser the
 * public style is already in the page; a move to the back office adds the stylesheet.
 */
function PageStyle({ publicPage }: { publicPage: boolean }) {
  const publicStyle = useContext(PublicStyle);
  if (!publicPage) return <link rel="stylesheet" href={stylesheet} precedence="default" />;
  return publicStyle ? (
    <style href="public" precedence="default">
      {publicStyle}
    </style>
  ) : null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  // React Router's inline scripts carry the page's Content-Security-Policy nonce (app/entry.server.tsx).
  const nonce = useContext(CspNonce);
  const publicPage = isPublicPage(useMatches().map((match) => match.id));
  // In the back office the latin fonts are fetched at once, not once the style is read: there by the
  // first paint. As React's preloads they come first in <head>, ahead of the stylesheet. A public page
  // asks for them once its first screen is drawn (its inline script, app/lib/web-fonts.ts).
  if (!publicPage) for (const href of [displayFont, textFont]) preload(href, { as: "font", type: "font/woff2", crossOrigin: "anonymous" });
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {publicPage ? <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: WEB_FONTS }} /> : null}
        <PageStyle publicPage={publicPage} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        {/* A public page starts its scripts once it has loaded (app/lib/deferred-scripts.ts). */}
        {publicPage ? <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: LOAD_SCRIPTS }} /> : null}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Marks the page as interactive (used by browser tests to wait for hydration).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const details = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : JSON.stringify(error, null, 2);
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <img src="/logo.svg" alt="" className="h-16 w-16" />
      {notFound ? (
        <>
          <h1 className="font-display text-4xl font-extrabold">Oops! Page not found</h1>
          <a className="rounded-full bg-ink px-5 py-2 font-semibold text-paper" href="/">
            Back to Home
          </a>
        </>
      ) : (
        <>
          <h1 className="font-display text-4xl font-extrabold">Something went wrong</h1>
          <p>The page encountered an error and crashed.</p>
          <button
            type="button"
            className="rounded-full bg-ink px-5 py-2 font-semibold text-paper"
            onClick={() => window.location.reload()}
          >
            Reload Page
          </button>
          <details className="w-full text-left">
            <summary className="cursor-pointer font-semibold">Error Details</summary>
            <pre className="mt-2 overflow-auto rounded bg-paper-deep p-3 text-xs">{details}</pre>
          </details>
        </>
      )}
    </main>
  );
}
