// React Router's server entry (its default for Node, see @react-router/dev), with three additions: each
// page gets a Content-Security-Policy nonce, given to React Router's inline scripts through CspNonce
// and sent in the policy itself (app/lib/csp.ts); a public page's scripts are deferred until it has
// loaded (app/lib/deferred-scripts.ts), production only, as Vite's development server injects scripts
// of its own; and the public pages' stylesheet is given to app/root.tsx to write into their <head>.
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { contentSecurityPolicy, CspNonce } from "./lib/csp";
import { isPublicPage } from "./lib/deferred-scripts";
import { deferScripts } from "./lib/deferred-scripts.server";
import { PublicStyle } from "./lib/public-style";
import publicStyle from "./public.css?inline";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = process.env.NODE_ENV === "production" ? randomBytes(16).toString("base64") : undefined;
  if (nonce) responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  const defer = nonce !== undefined && isPublicPage(routerContext.staticHandlerContext.matches.map((match) => match.route.id));

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers, SPA mode and the page cache (which keeps and sends a page once complete) get the whole
    // page at once. A page streamed in parts (React Router streams its data after the shell) comes out
    // differently depending on how busy the process is: the cache would keep a longer page, with a
    // different ETag for the same content at each render.
    const whole = loadContext.wholePage === true || (userAgent && isbot(userAgent)) || routerContext.isSpaMode;
    const readyOption: keyof RenderToPipeableStreamOptions = whole ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <CspNonce.Provider value={nonce}>
        <PublicStyle.Provider value={publicStyle}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </PublicStyle.Provider>
      </CspNonce.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(defer ? body.pipe(deferScripts()) : body);
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors while streaming inside the shell; those of the shell itself reach handleDocumentRequest.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
