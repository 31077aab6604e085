import { isIP, type Socket, connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";

/**
 * One GET of the probe's target through a local SOCKS5 port (the core's inbound for one
 * entry): SOCKS5 CONNECT by hand, then HTTP/1.1, over TLS for an https target, until the
 * status line. Success is a 2xx within the timeout; the body is not read.
 */
export type FetchOutcome =
  | { ok: true; latencyMs: number }
  /** `answered`: the target's answer came back, only not a 2xx (the entry itself carried it). */
  | { ok: false; error: string; answered?: boolean };

const socksReplies: Record<number, string> = {
  1: "the core's SOCKS server failed",
  2: "the core's rules refused the connection",
  3: "network unreachable",
  4: "host unreachable",
  5: "connection refused",
  6: "TTL expired",
};

/** The CONNECT request: a domain by name (the entry resolves it, as an app's would), an IP as one. */
function connectRequest(host: string, port: number): Buffer {
  const portBytes = [port >> 8, port & 0xff];
  const kind = isIP(host);
  if (kind === 4) return Buffer.from([5, 1, 0, 1, ...host.split(".").map(Number), ...portBytes]);
  if (kind === 6) {
    const groups = expandIpv6(host);
    return Buffer.from([5, 1, 0, 4, ...groups.flatMap((group) => [group >> 8, group & 0xff]), ...portBytes]);
  }
  const name = Buffer.from(host);
  return Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, Buffer.from(portBytes)]);
}

function expandIpv6(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const parse = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  return [...start, ...new Array(8 - start.length - end.length).fill(0), ...end];
}

/** Bytes of a SOCKS5 reply, or undefined while it is incomplete. */
function replyLength(buffer: Buffer): number | undefined {
  if (buffer.length < 5) return undefined;
  const kind = buffer[3];
  const length = kind === 1 ? 10 : kind === 4 ? 22 : kind === 3 ? 7 + (buffer[4] ?? 0) : 10;
  return buffer.length >= length ? length : undefined;
}

/** Reads from `socket` until `complete` says how much of what arrived it takes. */
function readUntil(socket: Socket, complete: (buffer: Buffer) => number | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const length = complete(buffer);
      if (length === undefined) return;
      cleanup();
      const rest = buffer.subarray(length);
      if (rest.length > 0) socket.unshift(rest);
      resolve(buffer.subarray(0, length));
    };
    const onEnd = () => {
      cleanup();
      reject(new Error("the connection closed before an answer came"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onEnd);
      socket.off("error", onError);
    };
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onEnd);
    socket.on("error", onError);
  });
}

const lineEnd = (buffer: Buffer) => {
  const index = buffer.indexOf("\r\n");
  return index === -1 ? (buffer.length > 8192 ? buffer.length : undefined) : index + 2;
};

/** A socket error as a person would say it. */
export function describeSocketError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    EPIPE: "connection reset",
    ETIMEDOUT: "timed out",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ENOTFOUND: "the name does not resolve",
    EAI_AGAIN: "the name does not resolve (DNS did not answer)",
  };
  return (code && known[code]) || (error as Error).message || String(error);
}

async function exchange(
  socket: Socket,
  target: URL,
  onSecured: (socket: Socket) => void,
): Promise<FetchOutcome> {
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  }).catch((error: unknown) => {
    throw new Error(`the probe's core does not listen on its port: ${describeSocketError(error)}`);
  });
  socket.write(Buffer.from([5, 1, 0]));
  const greeting = await readUntil(socket, (buffer) => (buffer.length >= 2 ? 2 : undefined));
  if (greeting[0] !== 5 || greeting[1] !== 0) throw new Error("the core's SOCKS server refused the greeting");
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const isHttps = target.protocol === "https:";
  const port = Number(target.port) || (isHttps ? 443 : 80);
  socket.write(connectRequest(host, port));
  const reply = await readUntil(socket, replyLength);
  if (reply[1] !== 0) throw new Error(socksReplies[reply[1] ?? 1] ?? `SOCKS reply ${reply[1]}`);

  let stream: Socket = socket;
  if (isHttps) {
    const secured = tlsConnect({
      socket,
      // `host` is what the certificate is checked against; SNI carries names only.
      host,
      servername: isIP(host) ? undefined : host,
      ALPNProtocols: ["http/1.1"],
    });
    onSecured(secured);
    const failure = await new Promise<Error | undefined>((resolve) => {
      secured.once("secureConnect", () => resolve(undefined));
      secured.once("error", resolve);
      secured.once("close", () => resolve(new Error("the connection closed before an answer came")));
    });
    if (failure) {
      const code = (failure as NodeJS.ErrnoException).code;
      // A reset or a close is the entry not carrying; anything else (a certificate the
      // probe does not trust, a TLS alert) is the target's own answer through the entry.
      if (code === undefined || code === "ECONNRESET" || code === "EPIPE") throw failure;
      return {
        ok: false,
        error: `TLS handshake with the target failed: ${describeSocketError(failure)}`,
        answered: true,
      };
    }
    stream = secured;
  }
  stream.write(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUser-Agent: kannt-probe\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
  );
  const statusLine = (await readUntil(stream, lineEnd)).toString("latin1");
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1];
  if (!status) return { ok: false, error: "the answer is not HTTP", answered: true };
  if (!status.startsWith("2")) return { ok: false, error: `HTTP ${status}`, answered: true };
  return { ok: true, latencyMs: 0 };
}

export async function fetchThroughSocks(
  socksPort: number,
  target: URL,
  timeoutMs: number,
): Promise<FetchOutcome> {
  const startedAt = performance.now();
  const sockets: Socket[] = [];
  // An error no read is waiting for (a reset between two reads) must not end the agent.
  const track = (socket: Socket) => sockets.push(socket.on("error", () => undefined));
  const socket = tcpConnect(socksPort, "127.0.0.1");
  track(socket);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<FetchOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: `timed out after ${Math.round(timeoutMs / 1000)} s` }),
      timeoutMs,
    );
  });
  const exchanged = exchange(socket, target, track).then(
    (outcome): FetchOutcome =>
      outcome.ok ? { ok: true, latencyMs: Math.round(performance.now() - startedAt) } : outcome,
    (error: unknown): FetchOutcome => ({ ok: false, error: describeSocketError(error) }),
  );
  try {
    return await Promise.race([exchanged, timedOut]);
  } finally {
    clearTimeout(timer);
    for (const opened of sockets) opened.destroy();
  }
}
