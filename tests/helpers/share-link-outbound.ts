/**
 * What a client app does with a subscription: decode the base64 body into share links and
 * turn each link into a V2Ray outbound, reading only what the link says (v2rayN's
 * `vmess://` JSON and the `vless://` URL of Xray's share-link standard). Tests then run a
 * real V2Ray with these outbounds, so a link that names the wrong port, id or transport
 * fails there, as it would in the customer's app.
 */

export type ClientOutbound = {
  protocol: "vless" | "vmess";
  settings: {
    vnext: { address: string; port: number; users: Record<string, string | number>[] }[];
  };
  streamSettings: Record<string, unknown>;
};

/** The links a base64 subscription body holds, one a line. */
export function subscriptionLinks(body: string): string[] {
  return Buffer.from(body.trim(), "base64")
    .toString("utf8")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

function portOf(text: string, link: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`no valid port in ${link}`);
  return port;
}

/** The transport and security parts, as V2Ray 4's streamSettings spell them. */
function streamSettingsOf(
  link: string,
  transport: { network: string; security: string; path?: string; host?: string; sni?: string; alpn?: string },
): Record<string, unknown> {
  const settings: Record<string, unknown> = { network: transport.network };
  switch (transport.network) {
    case "tcp":
      break;
    case "ws":
      settings.wsSettings = {
        path: transport.path || "/",
        ...(transport.host ? { headers: { Host: transport.host } } : {}),
      };
      break;
    default:
      throw new Error(`V2Ray 4 in these tests speaks tcp and ws, not ${transport.network} (${link})`);
  }
  if (transport.security === "tls") {
    settings.security = "tls";
    settings.tlsSettings = {
      ...(transport.sni ? { serverName: transport.sni } : {}),
      ...(transport.alpn ? { alpn: transport.alpn.split(",") } : {}),
    };
  } else if (transport.security === "none" || transport.security === "") {
    settings.security = "none";
  } else {
    throw new Error(`V2Ray 4 has no ${transport.security} security (${link})`);
  }
  return settings;
}

/** `vless://{uuid}@{host}:{port}?type=…&security=…#{name}`. */
function vlessOutbound(link: string): ClientOutbound {
  const url = new URL(link);
  const query = url.searchParams;
  const id = decodeURIComponent(url.username);
  const address = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!id || !address) throw new Error(`a vless link without id or host: ${link}`);
  const flow = query.get("flow");
  return {
    protocol: "vless",
    settings: {
      vnext: [
        {
          address,
          port: portOf(url.port, link),
          users: [{ id, encryption: query.get("encryption") ?? "none", ...(flow ? { flow } : {}) }],
        },
      ],
    },
    streamSettings: streamSettingsOf(link, {
      network: query.get("type") ?? "tcp",
      security: query.get("security") ?? "none",
      path: query.get("path") ?? undefined,
      host: query.get("host") ?? undefined,
      sni: query.get("sni") ?? undefined,
      alpn: query.get("alpn") ?? undefined,
    }),
  };
}

/** `vmess://` + base64 of v2rayN's JSON (version 2). */
function vmessOutbound(link: string): ClientOutbound {
  const payload = JSON.parse(Buffer.from(link.slice("vmess://".length), "base64").toString("utf8")) as Record<
    string,
    string | number | undefined
  >;
  const text = (key: string) => String(payload[key] ?? "");
  if (!text("id") || !text("add")) throw new Error(`a vmess link without id or host: ${link}`);
  return {
    protocol: "vmess",
    settings: {
      vnext: [
        {
          address: text("add"),
          port: portOf(text("port"), link),
          users: [{ id: text("id"), alterId: Number(text("aid") || "0"), security: text("scy") || "auto" }],
        },
      ],
    },
    streamSettings: streamSettingsOf(link, {
      network: text("net") || "tcp",
      security: text("tls") || "none",
      path: text("path"),
      host: text("host"),
      sni: text("sni"),
      alpn: text("alpn"),
    }),
  };
}

/** The outbound a client app builds from one share link. */
export function outboundFromLink(link: string): ClientOutbound {
  if (link.startsWith("vless://")) return vlessOutbound(link);
  if (link.startsWith("vmess://")) return vmessOutbound(link);
  throw new Error(`not a share link this client reads: ${link.slice(0, 40)}`);
}

/** The same outbound with another credential: a made-up UUID, as a stranger would try. */
export function withCredential(outbound: ClientOutbound, id: string): ClientOutbound {
  const copy = structuredClone(outbound);
  for (const server of copy.settings.vnext) for (const user of server.users) user.id = id;
  return copy;
}

/** A route of the customer's app: its local proxy port and the outbound it goes out through (stream settings may be left to the core's defaults). */
export type ClientRoute = {
  proxyPort: number;
  outbound: Omit<ClientOutbound, "streamSettings"> & Partial<Pick<ClientOutbound, "streamSettings">>;
};

/** The customer's app: one local HTTP proxy per route, each sent out through its own outbound. */
export function clientAppConfig(routes: ClientRoute[]) {
  return {
    log: { loglevel: "warning" },
    inbounds: routes.map((route, index) => ({
      tag: `in-${index}`,
      listen: "127.0.0.1",
      port: route.proxyPort,
      protocol: "http",
    })),
    outbounds: routes.map((route, index) => ({ tag: `out-${index}`, ...route.outbound })),
    routing: {
      rules: routes.map((_, index) => ({
        type: "field",
        inboundTag: [`in-${index}`],
        outboundTag: `out-${index}`,
      })),
    },
  };
}
