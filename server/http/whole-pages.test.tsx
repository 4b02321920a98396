import { Suspense } from "react";
import { Await, Outlet, useLoaderData } from "react-router";
import { describe, expect, test } from "vitest";
import handleRequest, { streamTimeout } from "~/app/entry.server";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { routeEntry, startTestWebServer, testServerBuild } from "~/test/web-server";

// A page the page cache keeps is rendered whole (app/entry.server.tsx): React Router would otherwise
// send its shell first and stream the rest in parts, and the bytes kept would depend on how busy the
// process was while rendering. A two-route app stands in for the React build, with the real server
// entry: its page has a part that arrives 50 ms after the rest, as a loader's promise.
const t = testDatabaseForFile();

const LATE_MS = 50;
/** As a browser: crawlers get whole pages whatever the cache. */
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36" };

function Root() {
  return (
    <html lang="en">
      <body>
        <Outlet />
      </body>
    </html>
  );
}

function LatePage() {
  const { late } = useLoaderData<{ late: Promise<string> }>();
  return (
    <main>
      <p>On time.</p>
      <Suspense fallback={<p>Still coming...</p>}>
        <Await resolve={late}>{(text: string) => <p>{text}</p>}</Await>
      </Suspense>
    </main>
  );
}


const build = testServerBuild({
  entry: { module: { default: handleRequest, streamTimeout } },
  routes: {
    root: { id: "root", path: "", module: { default: Root } },
    late: {
      id: "late",
      parentId: "root",
      path: "late",
      module: {
        default: LatePage,
        loader: () => ({ late: new Promise<string>((resolve) => setTimeout(() => resolve("The late part."), LATE_MS)) }),
      },
    },
  },
  assets: {
    entry: { module: "/entry.js", imports: [] },
    routes: { root: routeEntry("root", { path: "", hasLoader: false }), late: routeEntry("late", { parentId: "root", path: "late", hasLoader: true }) },
    url: "/manifest.js",
    version: "1",
  },
  routeDiscovery: { mode: "initial" },
});

/** What the page's <main> holds: the late part in its place, or its fallback with a template to be filled in later. */
function main(html: string): string {
  return /<main>(.*?)<\/main>/s.exec(html)?.[1] ?? html;
}

describe("pages the page cache keeps", () => {
  test("are rendered whole: the late part in its place, nothing streamed after the shell, the same bytes and ETag at every render", async () => {
    const server = await startTestWebServer(t.database, build);
    try {
      const first = await fetch(`${server.url}/late`, { headers: BROWSER });
      expect(first.status).toBe(200);
      expect(first.headers.get("x-cache")).toBe("MISS");
      const html = await first.text();
      expect(main(html)).toBe("<p>On time.</p><!--$--><p>The late part.</p><!--/$-->");
      expect(html).not.toContain("Still coming");

      // Rendered again (the page cache dropped), the same content makes the same page.
      server.invalidatePublicPages();
      const again = await fetch(`${server.url}/late`, { headers: BROWSER });
      expect(again.headers.get("x-cache")).toBe("MISS");
      expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
      const revalidated = await fetch(`${server.url}/late`, { headers: { ...BROWSER, "if-none-match": first.headers.get("etag")! } });
      expect(revalidated.status).toBe(304);
    } finally {
      await server.close();
    }
  });

  test("while a page the cache does not keep (a signed-in editor's) is still streamed: its shell first, the late part after", async () => {
    const server = await startTestWebServer(t.database, build);
    try {
      const answer = await fetch(`${server.url}/late`, { headers: { ...BROWSER, cookie: "better-auth.session_token=an-editor" } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-cache")).toBeNull();
      const html = await answer.text();
      expect(main(html)).toContain("Still coming...");
      expect(html).toMatch(/<template id="B:0"><\/template>/);
      expect(html).toContain("The late part.");
    } finally {
      await server.close();
    }
  });
});
