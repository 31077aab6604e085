import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startLoopbackServer } from "../../helpers/loopback-server";

type Answer = { status: number; headers: string; body: string };

/** The next `count` whole answers on `socket`, each read to the end of its Content-Length. */
function answers(socket: Socket, count: number): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    let text = "";
    const found: Answer[] = [];
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      for (;;) {
        const end = text.indexOf("\r\n\r\n");
        if (end === -1) return;
        const headers = text.slice(0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        const body = Buffer.from(text.slice(end + 4, end + 4 + length), "latin1").toString();
        found.push({ status: Number(headers.split(" ")[1]), headers: headers.toLowerCase(), body });
        text = text.slice(end + 4 + length);
        if (found.length === count) {
          socket.off("data", onData);
          resolve(found);
          return;
        }
      }
    };
    socket.on("data", onData);
    socket.once("close", () =>
      reject(new Error(`closed after ${found.length} answers: ${JSON.stringify(text)}`)),
    );
    socket.once("error", reject);
  });
}

let started: Awaited<ReturnType<typeof startLoopbackServer>>;
let socket: Socket;

beforeAll(async () => {
  started = await startLoopbackServer("bodies");
});
afterAll(async () => {
  await started.shutdown();
});

/** A fresh connection to the real server, as a client or proxy keeps one. */
async function connection(): Promise<Socket> {
  socket = connect(Number(started.server.port), "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return socket;
}

const order = (head: string) =>
  `POST /api/shop/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${head}\r\n`;
const health = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
/** 100 KB of JSON: a string too long for the limit, however it is sent. */
const tooLong = `{"tariff":"${"x".repeat(100 * 1024)}"}`;

/** In 8 KB chunks, as a client that streams its body sends it. */
function chunked(body: string): string {
  let out = "";
  for (let at = 0; at < body.length; at += 8192) {
    const part = body.slice(at, at + 8192);
    out += `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}

/** The server's own refusal: its status, its words, its security headers (DESIGN §12). */
function expectOwnRefusal(answer: Answer | undefined) {
  expect(answer?.status).toBe(413);
  expect(answer?.headers).toContain("x-content-type-options: nosniff");
  expect(answer?.headers).toContain("x-frame-options: deny");
  expect(JSON.parse(answer?.body ?? "{}")).toMatchObject({
    error: { code: "body_too_large", message: "The request body is over 64 KB." },
  });
}

describe("over a real connection, a body over 64 KB", () => {
  test("with its length declared gets the server's 413, and the connection serves the next request", async () => {
    const client = await connection();
    try {
      const both = answers(client, 2);
      client.write(`${order(`Content-Length: ${Buffer.byteLength(tooLong)}\r\n`)}${tooLong}${health}`);
      const [refusal, next] = await both;
      expectOwnRefusal(refusal);
      expect(next?.status).toBe(200);
    } finally {
      client.destroy();
    }
  });

  test("sent in chunks gets the same 413 once it passes the limit, and the connection serves the next request", async () => {
    const client = await connection();
    try {
      const chunks = chunked(tooLong);
      // 80 KB of it and no end: the refusal comes without waiting for the rest.
      const cut = chunks.indexOf("\r\n", 10 * (8192 + 8)) + 2;
      const refused = answers(client, 1);
      client.write(`${order("Transfer-Encoding: chunked\r\n")}${chunks.slice(0, cut)}`);
      expectOwnRefusal((await refused)[0]);
      // The rest is read past and dropped, and what follows it is the next request.
      const next = answers(client, 1);
      client.write(`${chunks.slice(cut)}${health}`);
      expect((await next)[0]?.status).toBe(200);
    } finally {
      client.destroy();
    }
  });
});

test("a body sent in chunks within the limit is read as if its length were declared", async () => {
  const client = await connection();
  try {
    const both = answers(client, 2);
    // Read and checked by the route: only the period is missing, so the rest of it arrived.
    const body = JSON.stringify({ tariff: 1, padding: "p".repeat(30_000) });
    client.write(`${order("Transfer-Encoding: chunked\r\n")}${chunked(body)}`);
    client.write(`${order(`Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body}`);
    const [inChunks, declared] = await both;
    expect(inChunks?.status).toBe(400);
    expect(JSON.parse(inChunks?.body ?? "{}")).toMatchObject({
      error: { code: "invalid_input", message: 'Field "period": is missing.' },
    });
    expect(inChunks?.body).toBe(declared?.body);
  } finally {
    client.destroy();
  }
});
