import { describe, expect, test } from "vitest";
import { ipLiteral, ipv6Groups, isPublicAddress } from "./address-policy";

describe("isPublicAddress", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback, end of the block"],
    ["0.0.0.0", "unspecified"],
    ["10.0.0.1", "private 10/8"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12, end"],
    ["192.168.1.1", "private 192.168/16"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "Alibaba metadata"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.170.2", "ECS task metadata"],
    ["168.63.129.16", "Azure wire server"],
    ["192.0.0.192", "Oracle metadata"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast SSDP"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "IPv6 unspecified"],
    ["::1", "IPv6 loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback, dotted"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.1.2.3", "IPv4-mapped private"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped metadata"],
    ["::127.0.0.1", "IPv4-compatible (deprecated)"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["2002:7f00:1::", "6to4 of loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local fd"],
    ["fd00:ec2::254", "AWS IPv6 metadata"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["2001::1", "Teredo"],
    ["not-an-ip", "not an address at all"],
  ])("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each([
    ["93.184.215.14"],
    ["8.8.8.8"],
    ["1.1.1.1"],
    ["172.32.0.1"],
    ["100.128.0.1"],
    ["::ffff:8.8.8.8"],
    ["64:ff9b::808:808"],
    ["2606:4700:4700::1111"],
    ["2a00:1450:4001:80b::200e"],
  ])("accepts the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("ipv6Groups", () => {
  test.each([
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ["2001:db8:0:0:1:0:0:1", [0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]],
    ["fe80::1:2", [0xfe80, 0, 0, 0, 0, 0, 1, 2]],
    ["[::1]", [0, 0, 0, 0, 0, 0, 0, 1]],
  ])("expands %s", (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });
});

describe("ipLiteral", () => {
  test("strips the brackets of an IPv6 host and keeps IPv4 as is, and names are not literals", () => {
    expect(ipLiteral("[::1]")).toBe("::1");
    expect(ipLiteral("10.0.0.1")).toBe("10.0.0.1");
    expect(ipLiteral("example.com")).toBeNull();
  });
});
