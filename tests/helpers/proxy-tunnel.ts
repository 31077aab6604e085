import { connect } from "node:net";

export type Tunnel = {
  /** Every byte that came back after the proxy's own answer, as text. */
  received(): string;
  /** Date.now() when the last byte after the proxy's answer arrived; 0: none yet. */
  lastDataAt(): number;
  /** Resolves when the connection ends, whoever ended it. */
  closed: Promise<void>;
  isClosed(): boolean;
  close(): void;
};

/**
 * `GET http://127.0.0.1:{targetPort}{path}` through an HTTP proxy's CONNECT tunnel: one
 * fresh TCP connection per request (no pooling to hide a refusal), and a streamed answer
 * arrives as it is sent.
 */
export function getThroughProxy(proxyPort: number, targetPort: number, path: string): Tunnel {
  const socket = connect(proxyPort, "127.0.0.1");
  let head = "";
  let body = "";
  let isTunnelOpen = false;
  let isEnded = false;
  let lastDataAt = 0;
  // A silent tunnel (a node that neither answers nor closes) ends the try rather than the test.
  socket.setTimeout(20_000, () => socket.destroy());
  socket.once("connect", () => {
    socket.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\n\r\n`);
  });
  socket.on("data", (chunk: Buffer) => {
    if (isTunnelOpen) {
      body += chunk.toString("latin1");
      lastDataAt = Date.now();
      return;
    }
    head += chunk.toString("latin1");
    const end = head.indexOf("\r\n\r\n");
    if (end === -1) return;
    if (!/^HTTP\/1\.[01] 200/.test(head)) {
      socket.destroy();
      return;
    }
    isTunnelOpen = true;
    body = head.slice(end + 4);
    if (body !== "") lastDataAt = Date.now();
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nConnection: close\r\n\r\n`);
  });
  const closed = new Promise<void>((resolve) => {
    socket.once("close", () => {
      isEnded = true;
      resolve();
    });
  });
  socket.on("error", () => undefined);
  return {
    received: () => body,
    lastDataAt: () => lastDataAt,
    closed,
    isClosed: () => isEnded,
    close: () => socket.destroy(),
  };
}

/** true when a request through the proxy brought back the target's answer. */
export async function reaches(proxyPort: number, targetPort: number, marker: string): Promise<boolean> {
  const tunnel = getThroughProxy(proxyPort, targetPort, "/hello");
  // A refused VMess connection is not closed: the core drains it (its defence against
  // probing) until the client gives up. An answer through an open tunnel takes milliseconds,
  // so one that has not come after 10 s is a refusal.
  const startedAt = Date.now();
  while (!tunnel.isClosed() && !tunnel.received().includes(marker) && Date.now() - startedAt < 10_000)
    await Bun.sleep(10);
  tunnel.close();
  return tunnel.received().includes(marker);
}
