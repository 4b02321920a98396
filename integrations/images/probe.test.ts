import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { isFetchError } from "~/integrations/http/fetch-error";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { DEFAULT_HEADER_BYTES, ImageProbeError, isImageProbeError, probeImage } from "./probe";

let server: TestServer;
let http: HttpClient;
const files = new Map<string, Buffer>();

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 190, g: 90, b: 40 } } });

/** A valid JPEG whose frame header (with the size) comes after `commentBytes` of COM segments, as large EXIF or XMP blocks push it. */
function withLateFrameHeader(jpeg: Buffer, commentBytes: number): Buffer {
  const app0End = 4 + jpeg.readUInt16BE(4);
  const segments: Buffer[] = [];
  for (let left = commentBytes; left > 0; left -= 65_533) {
    const size = Math.min(left, 65_533);
    const segment = Buffer.alloc(size + 4, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(size + 2, 2);
    segments.push(segment);
  }
  return Buffer.concat([jpeg.subarray(0, app0End), ...segments, jpeg.subarray(app0End)]);
}

const SVG_LOGO = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: a drawing program -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" viewBox="0 0 240 60"><rect width="240" height="60" fill="#c52"/><text x="10" y="40">Oddwire</text></svg>`;

function serve(pathname: string, body: Buffer | string, contentType: string, extra: Record<string, string> = {}) {
  server.handle(pathname, (_req, res) => {
    const bytes = Buffer.from(body);
    res.writeHead(200, { "content-type": contentType, "content-length": String(bytes.length), ...extra }).end(bytes);
  });
}

beforeAll(async () => {
  server = await startTestServer();
  http = testHttpClient();
  const made: [string, Promise<Buffer>][] = [
    ["photo.jpg", solid(2000, 1333).jpeg().toBuffer()],
    ["chart.png", solid(1200, 800).png().toBuffer()],
    ["still.webp", solid(640, 480).webp().toBuffer()],
    ["still.avif", solid(800, 600).avif().toBuffer()],
    ["pixel.gif", solid(1, 1).gif().toBuffer()],
    ["progressive.jpg", solid(1600, 900).jpeg({ progressive: true }).toBuffer()],
    ["portrait.jpg", solid(1200, 800).jpeg().withMetadata({ orientation: 6 }).toBuffer()],
    ["late.jpg", solid(1000, 750).jpeg().toBuffer().then((jpeg) => withLateFrameHeader(jpeg, 200 * 1024))],
    ["too-late.jpg", solid(1000, 750).jpeg().toBuffer().then((jpeg) => withLateFrameHeader(jpeg, 1200 * 1024))],
    ["huge.jpg", sharp(randomBytes(2800 * 1900 * 3), { raw: { width: 2800, height: 1900, channels: 3 } }).jpeg({ quality: 95 }).toBuffer()],
  ];
  for (const [name, buffer] of made) files.set(name, await buffer);

  serve("/photo.jpg", files.get("photo.jpg")!, "image/jpeg");
  serve("/chart.png", files.get("chart.png")!, "image/png");
  serve("/still.webp", files.get("still.webp")!, "image/webp");
  serve("/still.avif", files.get("still.avif")!, "image/avif");
  serve("/pixel.gif", files.get("pixel.gif")!, "image/gif");
  serve("/progressive.jpg", files.get("progressive.jpg")!, "image/jpeg");
  serve("/portrait.jpg", files.get("portrait.jpg")!, "image/jpeg");
  serve("/late.jpg", files.get("late.jpg")!, "image/jpeg");
  serve("/too-late.jpg", files.get("too-late.jpg")!, "image/jpeg");
  serve("/logo.svg", SVG_LOGO, "image/svg+xml");
  serve("/viewbox.svg", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 128"><path d="M0 0h512v128H0z"/></svg>`, "image/svg+xml");
  serve("/unsized.svg", `<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>`, "image/svg+xml");
  serve("/octet.png", files.get("chart.png")!, "application/octet-stream");
  serve("/lie.jpg", "<!doctype html><html><head><title>Not found</title></head><body><svg width='16' height='16'></svg><h1>Oops</h1></body></html>", "image/jpeg");
  serve("/page.html", "<!doctype html><html><body><p>An article</p></body></html>", "text/html; charset=utf-8");
  serve("/broken.png", files.get("chart.png")!.subarray(0, 20), "image/png");
  serve("/empty.jpg", Buffer.alloc(0), "image/jpeg");
  server.handle("/moved.jpg", (_req, res) => void res.writeHead(302, { location: "/photo.jpg" }).end());
  server.handle("/chunked.png", (_req, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    res.end(files.get("chart.png"));
  });
  server.handle("/unavailable.jpg", (_req, res) => void res.writeHead(503, { "content-type": "text/plain" }).end("try later"));
}, 60_000);

afterAll(async () => {
  await http.close();
  await server.close();
});

describe("probeImage measures real images from their first bytes", () => {
  test.each([
    ["/photo.jpg", 2000, 1333, "jpg"],
    ["/chart.png", 1200, 800, "png"],
    ["/still.webp", 640, 480, "webp"],
    ["/still.avif", 800, 600, "avif"],
    ["/pixel.gif", 1, 1, "gif"],
    ["/progressive.jpg", 1600, 900, "jpg"],
    ["/logo.svg", 240, 60, "svg"],
    ["/viewbox.svg", 512, 128, "svg"],
    ["/unsized.svg", 0, 0, "svg"],
  ])("%s is %ix%i %s", async (pathname, width, height, type) => {
    const image = await probeImage(http, `${server.url}${pathname}`);
    expect(image).toMatchObject({ url: `${server.url}${pathname}`, width, height, type });
  });

  test("the byte count is the Content-Length when there is one, else null", async () => {
    expect((await probeImage(http, `${server.url}/photo.jpg`)).bytes).toBe(files.get("photo.jpg")!.length);
    expect((await probeImage(http, `${server.url}/chunked.png`)).bytes).toBeNull();
  });

  test("asks for an image", async () => {
    let accept: string | undefined;
    server.handle("/accept.png", (req, res) => {
      accept = req.headers.accept;
      res.writeHead(200, { "content-type": "image/png" }).end(files.get("chart.png"));
    });
    await probeImage(http, `${server.url}/accept.png`);
    expect(accept).toMatch(/^image\/avif,image\/webp,.*image\/\*/);
  });

  test("a picture its EXIF orientation turns a quarter is measured as shown", async () => {
    expect(await probeImage(http, `${server.url}/portrait.jpg`)).toMatchObject({ width: 800, height: 1200, type: "jpg" });
  });

  test("the bytes decide, not the Content-Type: a PNG sent as application/octet-stream is a PNG", async () => {
    expect(await probeImage(http, `${server.url}/octet.png`)).toMatchObject({ width: 1200, height: 800, type: "png" });
  });

  test("the final URL after a redirect is reported", async () => {
    expect(await probeImage(http, `${server.url}/moved.jpg`)).toMatchObject({ url: `${server.url}/photo.jpg`, width: 2000 });
  });

  test("a 5 MB image is measured from its head alone: the connection is dropped long before the rest is sent", async () => {
    const huge = files.get("huge.jpg")!;
    expect(huge.length).toBeGreaterThan(5_000_000);
    let written = 0;
    let finished = false;
    const closed = new Promise<void>((resolve) => {
      // A paced origin, as a real one over the internet: 64 KiB every 5 ms while the client listens.
      server.handle("/huge.jpg", (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(huge.length) });
        const timer = setInterval(() => {
          if (res.destroyed || written >= huge.length) {
            clearInterval(timer);
            return;
          }
          const chunk = huge.subarray(written, written + 64 * 1024);
          written += chunk.length;
          res.write(chunk);
          if (written >= huge.length) res.end(() => (finished = true));
        }, 5);
        res.on("close", () => {
          clearInterval(timer);
          resolve();
        });
      });
    });
    const image = await probeImage(http, `${server.url}/huge.jpg`);
    await closed;
    expect(image).toMatchObject({ width: 2800, height: 1900, type: "jpg", bytes: huge.length });
    expect(finished).toBe(false);
    expect(written).toBeLessThan(DEFAULT_HEADER_BYTES * 4);
  });

  test("a JPEG whose size comes after 200 KB of metadata is read again, further, once", async () => {
    const before = server.hits.filter((hit) => hit === "/late.jpg").length;
    expect((await sharp(files.get("late.jpg")!).metadata()).width).toBe(1000);
    expect(await probeImage(http, `${server.url}/late.jpg`)).toMatchObject({ width: 1000, height: 750, type: "jpg" });
    expect(server.hits.filter((hit) => hit === "/late.jpg").length - before).toBe(2);
  });
});

describe("probeImage says why it could not measure", () => {
  const failure = async (pathname: string) => {
    const error = await probeImage(http, `${server.url}${pathname}`).then(
      () => expect.unreachable("the probe should fail"),
      (e: unknown) => e,
    );
    expect(isImageProbeError(error)).toBe(true);
    return error as ImageProbeError;
  };

  test.each([
    ["/missing.jpg", "HTTP_STATUS", 404],
    ["/unavailable.jpg", "HTTP_STATUS", 503],
    ["/lie.jpg", "NOT_AN_IMAGE", 200],
    ["/page.html", "NOT_AN_IMAGE", 200],
    ["/empty.jpg", "NOT_AN_IMAGE", 200],
    ["/broken.png", "UNREADABLE", 200],
  ])("%s: %s", async (pathname, code, status) => {
    const error = await failure(pathname);
    expect(error).toMatchObject({ code, status, url: `${server.url}${pathname}` });
    expect(error.message).not.toBe("");
  });

  test("a JPEG whose size lies beyond the first MiB is UNREADABLE, after two reads", async () => {
    const error = await failure("/too-late.jpg");
    expect(error.code).toBe("UNREADABLE");
    expect(error.message).toMatch(/first 1048576 bytes/);
    expect(server.hits.filter((hit) => hit === "/too-late.jpg")).toHaveLength(2);
  });

  test("fetch errors pass through as they are: a host the guard refuses", async () => {
    const error = await probeImage(http, `${server.localhostUrl}/photo.jpg`).catch((e: unknown) => e);
    expect(isFetchError(error)).toBe(true);
    expect(isImageProbeError(error)).toBe(false);
    expect(error).toMatchObject({ code: "BLOCKED_ADDRESS" });
  });

  test("an ImageProbeError is recognised by its brand, even from another copy of the class", () => {
    expect(isImageProbeError(new ImageProbeError("UNREADABLE", "https://x.example/a.jpg", "m"))).toBe(true);
    expect(isImageProbeError(Object.assign(new Error("m"), { [Symbol.for("oddwire.ImageProbeError")]: true }))).toBe(true);
    expect(isImageProbeError(new Error("UNREADABLE"))).toBe(false);
    expect(isImageProbeError({ code: "UNREADABLE" })).toBe(false);
    expect(isImageProbeError(null)).toBe(false);
  });
});
