import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CoreKind } from "../core-messages.ts";
import type { Logger } from "../log.ts";

/** How long a starting core may take to listen on every port before it counts as failed. */
const startLimitMs = 20_000;
const stopLimitMs = 5_000;
const keptOutputBytes = 4096;

/** V2Ray 4 reads `-config <file>`; Xray runs `run -c <file>`. */
export function coreCommand(core: CoreKind, binary: string, configPath: string): string[] {
  return core === "xray" ? [binary, "run", "-c", configPath] : [binary, "-config", configPath];
}

/** A TCP port on loopback nothing listens on now (the core takes it a moment later). */
export async function freeLoopbackPort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The core the probe dials through, run as a child process with its config in a private
 * temporary folder (the config holds the probe's credential). It keeps running across
 * rounds and is restarted only when its config changes (the set of entries did) or it died.
 */
export class CoreClient {
  private child: ChildProcess | undefined;
  private output = "";
  private configText = "";
  private directory: string | undefined;
  private readonly core: CoreKind;
  private readonly binary: string;
  private readonly log: Logger;

  constructor(core: CoreKind, binary: string, log: Logger) {
    this.core = core;
    this.binary = binary;
    this.log = log;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  isRunning(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the core printed last: why it refused a config or stopped. */
  private outputTail(): string {
    return this.output.trim().split("\n").slice(-5).join(" | ");
  }

  /** Runs the core with `config`, listening on `ports`; a no-op when it already does. */
  async apply(config: Record<string, unknown>, ports: number[]): Promise<"started" | "restarted" | "kept"> {
    const text = JSON.stringify(config, null, 2);
    const wasRunning = this.isRunning();
    if (wasRunning && text === this.configText) return "kept";
    if (this.child && !wasRunning)
      this.log("warn", "the probe's core had stopped; starting it again", {
        exit: this.child.exitCode ?? this.child.signalCode,
        output: this.outputTail(),
      });
    await this.stop();
    this.directory ??= await mkdtemp(join(tmpdir(), "kannt-probe-core-"));
    const configPath = join(this.directory, "client.json");
    await writeFile(configPath, text, { mode: 0o600 });
    this.configText = text;
    await this.start(configPath, ports);
    return wasRunning ? "restarted" : "started";
  }

  private async start(configPath: string, ports: number[]): Promise<void> {
    const [program = "", ...args] = coreCommand(this.core, this.binary, configPath);
    this.output = "";
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-keptOutputBytes);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
    let failure: Error | undefined;
    void spawnError.then((error) => {
      failure = error;
    });
    const startedAt = Date.now();
    for (;;) {
      if (failure) {
        this.child = undefined;
        this.configText = "";
        throw new Error(`the probe's core (${program}) cannot be run: ${failure.message}`);
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        this.child = undefined;
        this.configText = "";
        throw new Error(
          `the probe's core exited at start (${child.exitCode ?? child.signalCode}): ${this.outputTail()}`,
        );
      }
      if ((await Promise.all(ports.map(isListening))).every(Boolean)) return;
      if (Date.now() - startedAt > startLimitMs) {
        await this.stop();
        throw new Error(
          `the probe's core did not listen on its ${ports.length} ports within ${startLimitMs / 1000} s: ${this.outputTail()}`,
        );
      }
      await sleep(100);
    }
  }

  /** Stops the core (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.configText = "";
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), stopLimitMs);
    await exited;
    clearTimeout(timer);
  }

  /** Stops the core and removes its config (the probe's credential with it). */
  async close(): Promise<void> {
    await this.stop();
    if (this.directory) await rm(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }
}
