import { isIPv4, isIPv6 } from "node:net";

/**
 * Which IP addresses a server-side fetch may connect to. Only globally routable unicast passes:
 * IPv4 minus the IANA special-purpose blocks, IPv6 only inside 2000::/3 minus its special blocks,
 * and addresses that embed an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
 */

type Cidr4 = readonly [base: number, prefix: number];

const BLOCKED_V4: readonly Cidr4[] = [
  cidr4("0.0.0.0", 8), // "this network", includes the unspecified address
  cidr4("10.0.0.0", 8), // private
  cidr4("100.64.0.0", 10), // carrier-grade NAT (Alibaba's metadata 100.100.100.200 lives here)
  cidr4("127.0.0.0", 8), // loopback
  cidr4("169.254.0.0", 16), // link-local, cloud metadata 169.254.169.254
  cidr4("172.16.0.0", 12), // private
  cidr4("192.0.0.0", 24), // IETF protocol assignments (Oracle's metadata 192.0.0.192)
  cidr4("192.0.2.0", 24), // documentation
  cidr4("192.88.99.0", 24), // 6to4 relay anycast
  cidr4("192.168.0.0", 16), // private
  cidr4("198.18.0.0", 15), // benchmarking
  cidr4("198.51.100.0", 24), // documentation
  cidr4("203.0.113.0", 24), // documentation
  cidr4("224.0.0.0", 4), // multicast
  cidr4("240.0.0.0", 4), // reserved, includes the broadcast address
];

/** Cloud metadata endpoints that sit in otherwise public space (Azure's wire server). */
const BLOCKED_V4_HOSTS = new Set([ipv4ToNumber("168.63.129.16")]);

function cidr4(base: string, prefix: number): Cidr4 {
  return [ipv4ToNumber(base), prefix];
}

function ipv4ToNumber(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function inCidr4(value: number, [base, prefix]: Cidr4): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(base / size);
}

function isPublicIPv4Number(value: number): boolean {
  return !BLOCKED_V4_HOSTS.has(value) && !BLOCKED_V4.some((block) => inCidr4(value, block));
}

/** Parses an IPv6 address (optionally with a zone) into its eight 16-bit groups. */
export function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!isIPv6(bare)) return null;
  let text = bare.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4ToNumber(dotted[1]);
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
    text = text.slice(0, -dotted[1].length);
    // "::1.2.3.4" leaves "::"; "64:ff9b::1.2.3.4" leaves "64:ff9b::"; "::ffff:1.2.3.4" leaves "::ffff:".
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const toGroups = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const [head = "", rest] = text.split("::");
  const left = toGroups(head);
  const right = [...(rest === undefined ? [] : toGroups(rest)), ...tail];
  const missing = 8 - left.length - right.length;
  if (rest === undefined && missing !== 0) return null;
  return [...left, ...new Array<number>(Math.max(0, missing)).fill(0), ...right];
}

function isPublicIPv6Groups(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (high: number, low: number) => isPublicIPv4Number(high * 65536 + low);
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && g5 === 0xffff) return embedded(g6, g7); // IPv4-mapped ::ffff:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7); // NAT64
  if ((g0 & 0xe000) !== 0x2000) return false; // outside global unicast: ::, ::1, fc00::/7 (AWS metadata fd00:ec2::254), fe80::/10, ff00::/8 ...
  if (g0 === 0x2001 && g1 < 0x0200) return false; // IETF protocol assignments, Teredo
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation (3fff::/20)
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4 carries an IPv4 address
  return true;
}

/** True when the address (IPv4 or IPv6 literal) is globally routable and not a metadata endpoint. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicIPv4Number(ipv4ToNumber(address));
  const groups = ipv6Groups(address);
  if (!groups) return false;
  return isPublicIPv6Groups(groups);
}

/** The IP literal a URL hostname stands for (brackets removed), or null for a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return isIPv4(bare) || isIPv6(bare) ? bare : null;
}
