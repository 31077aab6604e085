import { describe, expect, test } from "vitest";
import { servedEntries } from "../../../../bff/modules/access/entries/published-entries";
import { noteEntry } from "../../../../bff/modules/access/subscription/server-entries";
import {
  shareLink,
  shareLinksBody,
  vlessLink,
  vmessLink,
} from "../../../../bff/modules/access/subscription/share-links";
import type { PublishedEntryRow } from "../../../../db/queries/entries";
import { credential, entry, inbounds } from "../../../helpers/subscription-inbounds";

/** The query of a share link as a plain object, decoded the way client apps decode it. */
const queryOf = (link: string) => Object.fromEntries(new URL(link).searchParams);

const decodeBase64 = (text: string) => Buffer.from(text, "base64").toString("utf8");

describe("VLESS share links (Xray's share-link standard, discussion #716)", () => {
  test("REALITY with Vision: pbk, sid, spx, sni, fp and the flow, every value percent-encoded", () => {
    const link = vlessLink(credential, entry("Kannt · Amsterdam", "nl.example.com", inbounds.realityVision));
    expect(link).toBe(
      `vless://${credential}@nl.example.com:443?type=tcp&security=reality&encryption=none` +
        "&flow=xtls-rprx-vision&headerType=none&sni=www.microsoft.com&fp=chrome" +
        "&pbk=Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw&sid=6ba85179e30d4fc2&spx=%2F" +
        "#Kannt%20%C2%B7%20Amsterdam",
    );
    const url = new URL(link);
    expect(url.protocol).toBe("vless:");
    expect(url.username).toBe(credential);
    expect(url.hostname).toBe("nl.example.com");
    expect(url.port).toBe("443");
    expect(decodeURIComponent(url.hash.slice(1))).toBe("Kannt · Amsterdam");
    expect(queryOf(link)).toEqual({
      type: "tcp",
      security: "reality",
      encryption: "none",
      flow: "xtls-rprx-vision",
      headerType: "none",
      sni: "www.microsoft.com",
      fp: "chrome",
      pbk: inbounds.realityVision.publicKey,
      sid: "6ba85179e30d4fc2",
      spx: "/",
    });
  });

  test("TLS over WebSocket: path and host encoded (a '?' in the path stays in it), alpn comma-joined", () => {
    const link = vlessLink(credential, entry("Kannt · Frankfurt", "de.example.com", inbounds.tlsWs));
    expect(link).toContain("path=%2Fws%3Fed%3D2048&host=cdn.example.com");
    expect(link).toContain("alpn=h2%2Chttp%2F1.1");
    expect(queryOf(link)).toEqual({
      type: "ws",
      security: "tls",
      encryption: "none",
      path: "/ws?ed=2048",
      host: "cdn.example.com",
      sni: "cdn.example.com",
      alpn: "h2,http/1.1",
      fp: "firefox",
    });
  });

  test("TLS over gRPC: serviceName and mode=gun; Vision's flow only on raw TCP", () => {
    const withFlow = { ...inbounds.tlsGrpc, flow: "xtls-rprx-vision" };
    expect(queryOf(vlessLink(credential, entry("g", "g.example.com", withFlow)))).toEqual({
      type: "grpc",
      security: "tls",
      encryption: "none",
      serviceName: "kannt.grpc",
      mode: "gun",
      sni: "grpc.example.com",
      alpn: "h2",
    });
  });

  test("plain TCP carries no TLS parameters; HTTPUpgrade and XHTTP their path, host and mode", () => {
    expect(vlessLink(credential, entry("Kannt · Lab", "203.0.113.7", inbounds.plainTcp))).toBe(
      `vless://${credential}@203.0.113.7:10086?type=tcp&security=none&encryption=none&headerType=none#Kannt%20%C2%B7%20Lab`,
    );
    expect(queryOf(vlessLink(credential, entry("u", "u.example.com", inbounds.httpUpgrade)))).toMatchObject({
      type: "httpupgrade",
      path: "/up",
      host: "up.example.com",
    });
    expect(queryOf(vlessLink(credential, entry("x", "x.example.com", inbounds.xhttp)))).toMatchObject({
      type: "xhttp",
      security: "reality",
      path: "/x",
      mode: "auto",
      pbk: inbounds.xhttp.publicKey,
    });
  });

  test("an IPv6 host is bracketed; a name with URL characters stays one fragment", () => {
    const link = vlessLink(credential, entry("Kannt · A&B #1/2?", "2001:db8::7", inbounds.plainTcp));
    expect(link).toContain("@[2001:db8::7]:10086?");
    const url = new URL(link);
    expect(url.hostname).toBe("[2001:db8::7]");
    expect(decodeURIComponent(url.hash.slice(1))).toBe("Kannt · A&B #1/2?");
    expect(Object.keys(queryOf(link))).toEqual(["type", "security", "encryption", "headerType"]);
  });
});

describe("VMess links (v2rayN's share format, version 2)", () => {
  test("vmess:// and base64 of the JSON, every field a string as v2rayN writes it", () => {
    const link = vmessLink(credential, entry("Kannt · Riga", "lv.example.com", inbounds.vmessWs));
    expect(link.startsWith("vmess://")).toBe(true);
    expect(JSON.parse(decodeBase64(link.slice("vmess://".length)))).toEqual({
      v: "2",
      ps: "Kannt · Riga",
      add: "lv.example.com",
      port: "443",
      id: credential,
      aid: "0",
      scy: "auto",
      net: "ws",
      type: "none",
      host: "vm.example.com",
      path: "/vm",
      tls: "tls",
      sni: "vm.example.com",
      alpn: "http/1.1",
      fp: "chrome",
    });
  });

  test("gRPC's service name goes in path; without TLS, tls, sni, alpn and fp are empty", () => {
    const grpc = { ...inbounds.tlsGrpc, protocol: "vmess" as const, security: "none" as const };
    const payload = JSON.parse(
      decodeBase64(vmessLink(credential, entry("v", "v.example.com", grpc)).slice(8)),
    );
    expect(payload).toMatchObject({ net: "grpc", path: "kannt.grpc", tls: "", sni: "", alpn: "", fp: "" });
  });
});

describe("the base64 subscription body", () => {
  test("is standard base64 of the links, one a line, VLESS and VMess as each inbound is", () => {
    const entries = [
      entry("Kannt · A", "a.example.com", inbounds.realityVision),
      entry("Kannt · B", "b.example.com", inbounds.vmessWs),
    ];
    const body = shareLinksBody(credential, entries);
    expect(body).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const lines = decodeBase64(body).split("\n");
    expect(lines).toEqual(entries.map((item) => shareLink(credential, item)));
    expect(lines[0]?.startsWith("vless://")).toBe(true);
    expect(lines[1]?.startsWith("vmess://")).toBe(true);
  });

  test("the note entry points at 0.0.0.0:1 and says its message as the server's name", () => {
    const [line = ""] = decodeBase64(
      shareLinksBody("00000000-0000-0000-0000-000000000000", [noteEntry("Subscription ended — renew")]),
    ).split("\n");
    const url = new URL(line);
    expect(`${url.hostname}:${url.port}`).toBe("0.0.0.0:1");
    expect(decodeURIComponent(url.hash.slice(1))).toBe("Subscription ended — renew");
  });
});

/** One entry per inbound a node reported, each with the inbound's own settings, as a first report seeds them. */
function seededRows(nodes: { name: string; host: string | null; inbounds: string }[]): PublishedEntryRow[] {
  let id = 0;
  return nodes.flatMap((node, nodeIndex) => {
    let tags: string[] = [];
    try {
      tags = (JSON.parse(node.inbounds) as { tag: string }[]).map((inbound) => inbound.tag);
    } catch {
      tags = ["kannt-any"];
    }
    return [...new Set(tags)].map((tag) => ({
      id: ++id,
      node_id: nodeIndex + 1,
      inbound_tag: tag,
      position: id,
      enabled: 1,
      address: null,
      port: null,
      sni: null,
      fingerprint: null,
      alpn: null,
      path: null,
      host_header: null,
      service_name: null,
      remark: "",
      tags: "",
      tariffs: "",
      created_at: 0,
      updated_at: 0,
      node_name: node.name,
      node_host: node.host,
      inbounds: node.inbounds,
      last_seen_at: 0,
      core_state: "up" as const,
      pending_since: null,
    }));
  });
}

describe("server entries from the nodes' reports", () => {
  test("unique names per inbound, punycode hosts, and reports a client could not use left out", () => {
    const entries = servedEntries(
      seededRows([
        {
          name: "Amsterdam",
          host: "nl.example.com",
          inbounds: JSON.stringify([inbounds.realityVision, inbounds.tlsWs]),
        },
        { name: "Kyiv", host: "сервер.укр", inbounds: JSON.stringify([inbounds.plainTcp]) },
        { name: "Broken", host: "x.example.com", inbounds: "not json" },
        { name: "No host", host: null, inbounds: JSON.stringify([inbounds.plainTcp]) },
        { name: "Bad host", host: "a b/c", inbounds: JSON.stringify([inbounds.plainTcp]) },
        {
          name: "Odd",
          host: "[2001:db8::1]",
          inbounds: JSON.stringify([
            { ...inbounds.realityVision, publicKey: undefined },
            { ...inbounds.plainTcp, port: 70000 },
            { ...inbounds.plainTcp, protocol: "trojan" },
            inbounds.plainTcp,
          ]),
        },
      ]),
    );
    expect(entries.map((item) => [item.name, item.host, item.inbound.tag])).toEqual([
      ["Kannt · Amsterdam", "nl.example.com", "kannt-reality"],
      ["Kannt · Amsterdam 2", "nl.example.com", "kannt-ws"],
      ["Kannt · Kyiv", "xn--b1afb6bcb.xn--j1amh", "kannt-plain"],
      ["Kannt · Odd", "2001:db8::1", "kannt-plain"],
    ]);
  });
});
