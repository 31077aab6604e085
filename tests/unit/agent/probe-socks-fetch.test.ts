import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fetchThroughSocks } from "../../../agent/probe/socks-fetch";

/**
 * The probe's own SOCKS5 + HTTP client against a small SOCKS5 server standing in for the
 * core's inbound (it answers "connected" before it dials, as V2Ray's does), and local
 * targets: what counts as success, and the short errors a failure is reported with.
 */
type Behaviour = "relay" | "close" | "silent";

let behaviour: Behaviour = "relay";
let socks: Server;
let socksPort: number;
let target: ReturnType<typeof Bun.serve>;
let httpsTarget: ReturnType<typeof Bun.serve>;
let directory: string;
let lastRequest = { host: "", port: 0, headers: "" };

function readExactly(socket: Socket, count: number): Promise<Buffer> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < count) return;
      socket.off("data", onData);
      socket.pause();
      if (buffer.length > count) socket.unshift(buffer.subarray(count));
      resolve(buffer.subarray(0, count));
    };
    socket.on("data", onData);
    socket.resume();
  });
}

async function serveSocks(client: Socket) {
  client.on("error", () => undefined);
  await readExactly(client, 3);
  client.write(Buffer.from([5, 0]));
  const head = await readExactly(client, 4);
  let host = "";
  if (head[3] === 1) host = [...(await readExactly(client, 4))].join(".");
  else if (head[3] === 3) {
    const length = (await readExactly(client, 1))[0] ?? 0;
    host = (await readExactly(client, length)).toString();
  }
  const portBytes = await readExactly(client, 2);
  lastRequest = { host, port: portBytes.readUInt16BE(0), headers: "" };
  client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
  if (behaviour === "close") return void client.end();
  if (behaviour === "silent") return;
  const upstream = tcpConnect(lastRequest.port, "127.0.0.1");
  upstream.on("error", () => client.destroy());
  client.on("data", (chunk: Buffer) => {
    lastRequest.headers += chunk.toString("latin1");
  });
  client.pipe(upstream).pipe(client);
  client.resume();
}

beforeAll(async () => {
  socks = createServer((client) => void serveSocks(client));
  await new Promise<void>((resolve) => socks.listen(0, "127.0.0.1", resolve));
  socksPort = (socks.address() as { port: number }).port;
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) =>
      new URL(request.url).pathname === "/broken"
        ? new Response("upstream down", { status: 502 })
        : Response.json({ status: "ok" }),
  });
  directory = mkdtempSync(join(tmpdir(), "kannt-probe-fetch-"));
  const made = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=untrusted.test",
      "-keyout",
      join(directory, "key.pem"),
      "-out",
      join(directory, "cert.pem"),
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (made.exitCode !== 0)
    throw new Error(
      `openssl could not make the test's certificate (apt-get install -y openssl): ${made.stderr}`,
    );
  httpsTarget = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: {
      key: readFileSync(join(directory, "key.pem"), "utf8"),
      cert: readFileSync(join(directory, "cert.pem"), "utf8"),
    },
    fetch: () => Response.json({ status: "ok" }),
  });
});

afterAll(async () => {
  socks?.close();
  await target?.stop(true);
  await httpsTarget?.stop(true);
  rmSync(directory, { recursive: true, force: true });
});

const url = (path: string) => new URL(`http://127.0.0.1:${target.port}${path}`);

describe("a fetch through the core's SOCKS port", () => {
  test("a 2xx is success, with its latency; the request names the target's host and path", async () => {
    behaviour = "relay";
    const outcome = await fetchThroughSocks(socksPort, url("/api/health?probe=1"), 10_000);
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.ok && outcome.latencyMs).toBeGreaterThanOrEqual(0);
    expect(lastRequest).toMatchObject({ host: "127.0.0.1", port: target.port });
    expect(lastRequest.headers).toContain("GET /api/health?probe=1 HTTP/1.1\r\n");
    expect(lastRequest.headers).toContain(`Host: 127.0.0.1:${target.port}\r\n`);
  });

  test("a domain is sent to the proxy by name, for the entry's side to resolve", async () => {
    behaviour = "close";
    await fetchThroughSocks(socksPort, new URL("http://health.kannt.test:8080/"), 10_000);
    expect(lastRequest).toMatchObject({ host: "health.kannt.test", port: 8080 });
  });

  test("another status is a failure that names it, marked as the target's own answer", async () => {
    behaviour = "relay";
    expect(await fetchThroughSocks(socksPort, url("/broken"), 10_000)).toEqual({
      ok: false,
      error: "HTTP 502",
      answered: true,
    });
  });

  test("a tunnel that closes says so; one that never answers times out", async () => {
    behaviour = "close";
    expect(await fetchThroughSocks(socksPort, url("/"), 10_000)).toEqual({
      ok: false,
      error: "the connection closed before an answer came",
    });
    behaviour = "silent";
    expect(await fetchThroughSocks(socksPort, url("/"), 1_000)).toEqual({
      ok: false,
      error: "timed out after 1 s",
    });
  });

  test("an HTTPS target whose certificate the probe does not trust is the target's answer, not the entry's failure", async () => {
    behaviour = "relay";
    const outcome = await fetchThroughSocks(
      socksPort,
      new URL(`https://127.0.0.1:${httpsTarget.port}/`),
      10_000,
    );
    expect(outcome).toMatchObject({ ok: false, answered: true });
    expect(!outcome.ok && outcome.error).toMatch(/^TLS handshake with the target failed: /);
  });

  test("a SOCKS port nothing listens on is the probe's own problem, said plainly", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await fetchThroughSocks(port, url("/"), 10_000)).toEqual({
      ok: false,
      error: "the probe's core does not listen on its port: connection refused",
    });
  });
});
