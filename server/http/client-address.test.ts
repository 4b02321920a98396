import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { clientAddress, compileTrust, requestHost, requestProtocol } from "./client-address";

// A real server on loopback answering what it made of each request, under one TRUST_PROXY setting.
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function seen(trustProxy: false | number | string[], headers: Record<string, string>) {
  const trust = compileTrust(trustProxy);
  server = createServer((req, res) => {
    res.end(JSON.stringify({ address: clientAddress(req, trust), host: requestHost(req, trust) ?? null, protocol: requestProtocol(req, trust) }));
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ address: string; host: string | null; protocol: string }>((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path: "/", headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve(JSON.parse(body) as { address: string; host: string | null; protocol: string }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

const forwarded = { host: "127.0.0.1:4100", "x-forwarded-for": "198.51.100.7, 203.0.113.9", "x-forwarded-host": "news.oddwire.test, inner.test", "x-forwarded-proto": "https, http" };

describe("TRUST_PROXY", () => {
  test("off: the socket's address, Host and scheme, whatever the forwarded headers say", async () => {
    expect(await seen(false, forwarded)).toEqual({ address: "127.0.0.1", host: "127.0.0.1:4100", protocol: "http" });
  });

  test("a number trusts that many proxies: one hop gives the address the nearest proxy saw", async () => {
    expect(await seen(1, forwarded)).toEqual({ address: "203.0.113.9", host: "news.oddwire.test", protocol: "https" });
    expect((await seen(2, forwarded)).address).toBe("198.51.100.7");
  });

  test("a list trusts those addresses: loopback in front speaks for the client, another proxy does not", async () => {
    // Every hop but the client is trusted when all are loopback or listed; 203.0.113.9 is not.
    expect(await seen(["loopback"], forwarded)).toEqual({ address: "203.0.113.9", host: "news.oddwire.test", protocol: "https" });
    expect(await seen(["loopback", "203.0.113.9"], forwarded)).toMatchObject({ address: "198.51.100.7" });
    expect(await seen(["10.0.0.1"], forwarded)).toEqual({ address: "127.0.0.1", host: "127.0.0.1:4100", protocol: "http" });
  });
});
