import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { addEncoding, makeEntry } from "./page-entry";

const html = () => new Headers({ "Content-Type": "text/html; charset=utf-8" });
const page = Buffer.from(`<main>${"<p>A goat was elected mayor of a small town.</p>".repeat(200)}</main>`);

describe("a page as the cache keeps it", () => {
  test("is made in the encodings asked for; another is added when asked, with the ETag it would have had", async () => {
    const whole = await makeEntry(200, html(), page, 0);
    expect(Object.keys(whole.variants).sort()).toEqual(["br", "gzip", "identity"]);
    expect(brotliDecompressSync(whole.variants.br!.body).equals(page)).toBe(true);
    expect(gunzipSync(whole.variants.gzip!.body).equals(page)).toBe(true);
    expect(new Set(Object.values(whole.variants).map((v) => v!.etag)).size).toBe(3);

    const brOnly = await makeEntry(200, html(), page, 5, ["br"]);
    expect(Object.keys(brOnly.variants).sort()).toEqual(["br", "identity"]);
    expect(await addEncoding(brOnly, "gzip")).toBe(true);
    const identityOnly = await makeEntry(200, html(), page, 5, []);
    expect(Object.keys(identityOnly.variants)).toEqual(["identity"]);
    for (const encoding of ["br", "gzip"] as const) expect(await addEncoding(identityOnly, encoding)).toBe(true);
    for (const made of [brOnly, identityOnly]) {
      for (const encoding of ["identity", "br", "gzip"] as const) expect(made.variants[encoding]!.etag).toBe(whole.variants[encoding]!.etag);
    }
  });

  test("a body too small to gain from compression is kept as it is", async () => {
    const tiny = await makeEntry(200, html(), Buffer.from("<p>tiny</p>"), 0);
    expect(Object.keys(tiny.variants)).toEqual(["identity"]);
    expect(await addEncoding(tiny, "br")).toBe(false);
    expect(Object.keys(tiny.variants)).toEqual(["identity"]);
  });

  test("the ETag leaves out the script nonce wherever it appears, and nothing else", async () => {
    const nonced = (nonce: string, text = "goat") =>
      makeEntry(
        200,
        new Headers({ "Content-Type": "text/html", "Content-Security-Policy": `script-src 'nonce-${nonce}'` }),
        Buffer.from(`<script nonce="${nonce}">a()</script><p>${text} é</p>`.repeat(40) + `<script nonce="${nonce}">`),
        0,
      );
    const [a, b, c] = await Promise.all([nonced("abc123=="), nonced("zyx987=="), nonced("abc123==", "mayor")]);
    expect(a.variants.identity.etag).toBe(b.variants.identity.etag);
    expect(c.variants.identity.etag).not.toBe(a.variants.identity.etag);
  });
});
