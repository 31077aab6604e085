import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { clientAppConfig } from "./share-link-outbound";

/**
 * Debian's V2Ray 4 run for real: a VPN node as the agent manages it, and a second one as
 * the customer's app. Tests fail, never skip, without it.
 */
export function requireV2ray(): string {
  const path = Bun.which("v2ray");
  if (!path)
    throw new Error(
      "v2ray is not installed: the agent's test runs the real core. Install it with `apt-get install -y v2ray` (.ci/run does).",
    );
  return path;
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export type NodePorts = { api: number; vless: number; vmess: number };

/** The node: API on a dokodemo-door, per-user stats, an access log, a VLESS and a VMess inbound with no users. */
export function nodeConfig(ports: NodePorts, accessLog: string) {
  return {
    log: { access: accessLog, loglevel: "warning" },
    api: { tag: "api", services: ["HandlerService", "StatsService"] },
    stats: {},
    policy: { levels: { "0": { statsUserUplink: true, statsUserDownlink: true } } },
    inbounds: [
      {
        tag: "api",
        listen: "127.0.0.1",
        port: ports.api,
        protocol: "dokodemo-door",
        settings: { address: "127.0.0.1" },
      },
      {
        tag: "kannt-vless",
        listen: "127.0.0.1",
        port: ports.vless,
        protocol: "vless",
        settings: { clients: [], decryption: "none" },
        streamSettings: { network: "tcp" },
      },
      {
        tag: "kannt-vmess",
        listen: "127.0.0.1",
        port: ports.vmess,
        protocol: "vmess",
        settings: { clients: [] },
        streamSettings: { network: "tcp" },
      },
    ],
    outbounds: [{ tag: "direct", protocol: "freedom" }],
    routing: { rules: [{ type: "field", inboundTag: ["api"], outboundTag: "api" }] },
  };
}

export type AppRoute = { proxyPort: number; protocol: "vless" | "vmess"; id: string };

/** The customer's app: one HTTP proxy inbound per route, each sent to the node with its own credential. */
export function appConfig(node: NodePorts, routes: AppRoute[]) {
  return clientAppConfig(
    routes.map((route) => ({
      proxyPort: route.proxyPort,
      outbound: {
        protocol: route.protocol,
        settings: {
          vnext: [
            {
              address: "127.0.0.1",
              port: route.protocol === "vless" ? node.vless : node.vmess,
              users:
                route.protocol === "vless"
                  ? [{ id: route.id, encryption: "none" }]
                  : [{ id: route.id, alterId: 0 }],
            },
          ],
        },
      },
    })),
  );
}

export type V2rayProcess = {
  child: Subprocess<"ignore", "pipe", "pipe">;
  output(): string;
  stop(): Promise<void>;
};

async function isListening(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts `v2ray -config <file>` (logging at warning or above, to its output or its error log)
 * and resolves once it started and `readyPort` accepts connections.
 */
export async function startV2ray(directory: string, name: string, config: unknown, readyPort: number) {
  const path = join(directory, `${name}.json`);
  writeFileSync(path, JSON.stringify(config, null, 2));
  const child = Bun.spawn([requireV2ray(), "-config", path], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  void drain(child.stdout);
  void drain(child.stderr);
  // Ready once V2Ray says every inbound is up and the port answers. A connection alone is
  // no proof: polling a free port in the ephemeral range can connect the socket to itself
  // (a TCP self-connect), and gRPC then finds nobody there.
  const started = /V2Ray [\d.]+ started/;
  const errorLog = (config as { log?: { error?: string } }).log?.error;
  const log = () => output + (errorLog && existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "");
  while (!started.test(log()) || !(await isListening(readyPort))) {
    if (child.exitCode !== null) throw new Error(`v2ray ${name} exited (${child.exitCode}): ${output}`);
    await Bun.sleep(50);
  }
  const process: V2rayProcess = {
    child,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
  return { process, configPath: path };
}
