import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import proxyaddr from "proxy-addr";

// Who a request came from, and to which host and scheme, as TRUST_PROXY allows a proxy to say
// (X-Forwarded-For, -Host and -Proto). Read with the widely used `trust proxy` semantics (a hop
// count, addresses and ranges, or named groups such as loopback), so an operator's proxy setting
// means what it means elsewhere, and the addresses rate limits count and the URLs forms are checked
// against come from the same rule.

/** Whether the peer at `address`, `hop` proxies away from the server, may speak for the client. */
export type ProxyTrust = (address: string | undefined, hop: number) => boolean;

/** TRUST_PROXY as a test: off trusts nobody, a number that many hops, a list those addresses and subnets. */
export function compileTrust(trustProxy: false | number | string[]): ProxyTrust {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === "number") return (_address, hop) => hop < trustProxy;
  const trusted = proxyaddr.compile(trustProxy);
  return (address, hop) => address !== undefined && trusted(address, hop);
}

/** The client's address: the socket's, or the one the trusted proxies forwarded for. */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  return proxyaddr(req, trust) || req.socket.remoteAddress || "unknown";
}

/** The first value of a header a proxy may have repeated in a list. */
function firstOf(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const comma = text.indexOf(",");
  return (comma === -1 ? text : text.slice(0, comma)).trim();
}

/** The Host the request was made to (X-Forwarded-Host from a trusted proxy), with its port if it had one. */
export function requestHost(req: IncomingMessage, trust: ProxyTrust): string | undefined {
  const forwarded = trust(req.socket.remoteAddress, 0) ? firstOf(req.headers["x-forwarded-host"]) : undefined;
  return forwarded || req.headers.host || undefined;
}

/** http or https: the connection's, or X-Forwarded-Proto from a trusted proxy. */
export function requestProtocol(req: IncomingMessage, trust: ProxyTrust): string {
  const own = (req.socket as Partial<TLSSocket>).encrypted ? "https" : "http";
  if (!trust(req.socket.remoteAddress, 0)) return own;
  return firstOf(req.headers["x-forwarded-proto"]) || own;
}
