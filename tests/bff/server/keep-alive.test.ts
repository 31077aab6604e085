import { connect, type Socket } from "node:net";
import { expect, test } from "vitest";
import { createNode } from "../../../bff/modules/access/nodes/node-keys";
import { startLoopbackServer } from "../../helpers/loopback-server";

/** The next whole answer on `socket` (a health answer: small, with its Content-Length). */
function nextAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const [head, body = ""] = text.split("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(head ?? "")?.[1] ?? Number.NaN);
      if (body.length >= length) {
        socket.off("data", onData);
        resolve(text);
      }
    };
    socket.on("data", onData);
    socket.once("close", () => reject(new Error(`closed after: ${JSON.stringify(text)}`)));
    socket.once("error", reject);
  });
}

// A proxy or client keeps an idle connection for a while and then writes its next request on
// it; had the server closed it meanwhile, that request is reset (a POST is not resent).
// Bun's default closes after 10 s; the server keeps it 75 s, past Caddy's 60 s (deploy/caddy).
// Both wait 12 s of real time on servers of their own: side by side, not one after the other.
test.concurrent("an idle keep-alive connection is still open for the next request 12 s later", async () => {
  const started = await startLoopbackServer("idle");
  const socket = connect(Number(started.server.port), "127.0.0.1");
  try {
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const ask = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n";
    const first = nextAnswer(socket);
    socket.write(ask);
    expect(await first).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect(socket.readyState).toBe("open");
    const second = nextAnswer(socket);
    socket.write(ask);
    expect(await second).toMatch(/^HTTP\/1\.1 200/);
  } finally {
    socket.destroy();
    await started.shutdown();
  }
}, 60_000);

// A node's agent holds its allow-list call open (`wait`) until the next change.
test.concurrent("an agent's long poll of the allow-list outlives Bun's default 10 s idle limit", async () => {
  const started = await startLoopbackServer("poll");
  try {
    const key = await createNode(started.database, "long-poll", started.context.clock.now());
    const response = await fetch(
      `http://127.0.0.1:${started.server.port}/api/nodes/allowlist?since=0&wait=12`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ version: 0, full: true, entries: [], removed: [] });
  } finally {
    await started.shutdown();
  }
}, 60_000);
