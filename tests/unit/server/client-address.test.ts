import { describe, expect, test } from "vitest";
import {
  createAddressResolver,
  networkOf,
  parseTrustedProxies,
  withPeerAddress,
  withPeerSource,
} from "../../../bff/platform/client-address";

const from = (peer: string, forwardedFor?: string) =>
  withPeerAddress(
    new Request("http://localhost/", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} }),
    peer,
  );

describe("the client address", () => {
  test("without trusted proxies it is the socket's peer, whatever the headers say", () => {
    const resolve = createAddressResolver([]);
    expect(resolve(from("198.51.100.4", "1.2.3.4"))).toBe("198.51.100.4");
    expect(resolve(from("::ffff:192.0.2.1"))).toBe("192.0.2.1");
  });

  test("behind a trusted proxy it is the right-most hop that is not ours", () => {
    const resolve = createAddressResolver(parseTrustedProxies("10.0.0.0/8, 192.168.1.10, fd00::/8"));
    expect(resolve(from("10.0.0.2", "6.6.6.6, 203.0.113.7"))).toBe("203.0.113.7");
    expect(resolve(from("10.0.0.2", "6.6.6.6, 203.0.113.7, 192.168.1.10"))).toBe("203.0.113.7");
    expect(resolve(from("fd00::1", "2001:db8::5"))).toBe("2001:db8::5");
    expect(resolve(from("10.0.0.2"))).toBe("10.0.0.2");
    // A peer that is not a trusted proxy cannot speak for anyone else.
    expect(resolve(from("203.0.113.9", "10.0.0.5"))).toBe("203.0.113.9");
    // Every hop ours: the left-most is as close to the client as we can tell.
    expect(resolve(from("10.0.0.2", "10.0.0.9, 10.0.0.3"))).toBe("10.0.0.9");
  });

  test("a bad TRUSTED_PROXIES entry stops the start with its name", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, proxy.local")).toThrow(/proxy\.local/);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
    expect(parseTrustedProxies("::1, 127.0.0.1/32")).toEqual(["::1", "127.0.0.1/32"]);
  });
});

describe("the peer address from the server", () => {
  test("is asked for only when someone needs it, and once", () => {
    let asked = 0;
    const source = {
      requestIP: () => {
        asked++;
        return { address: "::ffff:198.51.100.7" };
      },
    };
    const request = withPeerSource(new Request("http://localhost/"), source);
    expect(asked).toBe(0);
    const resolve = createAddressResolver([]);
    expect(resolve(request)).toBe("198.51.100.7");
    expect(resolve(request)).toBe("198.51.100.7");
    expect(asked).toBe(1);
  });
});

describe("an address cut to its network", () => {
  test("keeps an IPv4 /24 and an IPv6 /48, and leaves a network already cut alone", () => {
    expect(networkOf("203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkOf("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd::/48");
    expect(networkOf("2001:DB8::1")).toBe("2001:db8:0::/48");
    expect(networkOf("203.0.113.0/24")).toBe("203.0.113.0/24");
    expect(networkOf("not an address")).toBeUndefined();
  });
});
