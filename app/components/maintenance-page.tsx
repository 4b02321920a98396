/**
 * The page a visitor sees when the database cannot be reached and no earlier copy of the page is
 * kept (server/http/public-cache.ts). Rendered once to static HTML: it carries no script and no
 * stylesheet of the build, only the colours and the logo of the site.
 */
export function MaintenancePage({ retryAfterSeconds }: { retryAfterSeconds: number }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta httpEquiv="refresh" content={String(retryAfterSeconds)} />
        <title>Back in a moment | Oddwire</title>
      </head>
      <body style={{ margin: 0, background: "#f7f2e8", color: "#15131a", fontFamily: "system-ui, -apple-system, 'Segoe UI', sans-serif" }}>
        <main
          id="main"
          style={{ minHeight: "100vh", maxWidth: "34rem", margin: "0 auto", padding: "2rem", boxSizing: "border-box", display: "flex", flexDirection: "column", justifyContent: "center", alignItems: "center", gap: "1rem", textAlign: "center" }}
        >
          <img src="/logo.svg" alt="" width={64} height={64} />
          <h1 style={{ fontSize: "2.25rem", lineHeight: 1.1, margin: 0, fontWeight: 800 }}>Back in a moment</h1>
          <p style={{ fontSize: "1.125rem", lineHeight: 1.5, margin: 0 }}>
            Oddwire cannot reach its stories right now. Nothing is lost: the site comes back by itself as soon as it can, usually within a minute or two.
          </p>
          <p style={{ margin: 0, color: "#15131acc" }}>This page tries again in {retryAfterSeconds} seconds, or you can reload it.</p>
          <a href="" style={{ background: "#15131a", color: "#f7f2e8", borderRadius: "999px", padding: "0.5rem 1.25rem", fontWeight: 600, textDecoration: "none" }}>
            Reload Page
          </a>
        </main>
      </body>
    </html>
  );
}
