import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, test } from "vitest";
import { DEFERRED_SCRIPT_TYPE, isPublicPage } from "./deferred-scripts";
import { deferScripts, deferScriptsIn } from "./deferred-scripts.server";

// The head and the end of a page as React Router writes them (its <Scripts>, hoisted by React).
const PAGE = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="preload" as="image" href="/logo.svg"/>',
  '<link rel="modulepreload" href="/assets/entry.client-Csti_JA5.js" nonce="abc=="/>',
  '<link rel="modulepreload" href="/assets/root-wb3typof.js" nonce="abc=="/>',
  '<link nonce="abc==" rel="icon" href="/logo.svg" type="image/svg+xml"/></head><body><main><p>Tromsø — “odd”</p></main>',
  '<script nonce="abc==">window.__reactRouterContext = {};</script>',
  '<script nonce="abc==" type="module" async="">import * as route0 from "/assets/root-wb3typof.js";\nimport("/assets/entry.client-Csti_JA5.js");</script>',
  "</body></html>",
].join("");

const EXPECTED = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="preload" as="image" href="/logo.svg"/>',
  '<link nonce="abc==" rel="icon" href="/logo.svg" type="image/svg+xml"/></head><body><main><p>Tromsø — “odd”</p></main>',
  '<script nonce="abc==">window.__reactRouterContext = {};</script>',
  `<script nonce="abc==" type="${DEFERRED_SCRIPT_TYPE}" async="">import * as route0 from "/assets/root-wb3typof.js";\nimport("/assets/entry.client-Csti_JA5.js");</script>`,
  "</body></html>",
].join("");

describe("a public page's scripts are deferred", () => {
  test("its module preloads are dropped and its module script is written inert, the rest untouched", () => {
    expect(deferScriptsIn(PAGE)).toBe(EXPECTED);
  });

  test.each([1, 2, 3, 7, 64])("a page streamed in pieces of %i bytes comes out the same, tags and characters cut anywhere", async (size) => {
    const bytes = Buffer.from(PAGE, "utf8");
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
    expect(await text(Readable.from(pieces).pipe(deferScripts()))).toBe(EXPECTED);
  });

  test("only pages under the public layout", () => {
    expect(isPublicPage(["root", "routes/public-layout", "routes/home"])).toBe(true);
    expect(isPublicPage(["root", "routes/admin/layout", "routes/admin/dashboard"])).toBe(false);
    expect(isPublicPage(["root", "routes/reset-password"])).toBe(false);
  });
});
