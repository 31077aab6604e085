import { isIP, connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { ProbeEntry } from "../contract/probe-api.ts";
import { describeSocketError } from "./socks-fetch.ts";

/**
 * Why a fetch through an entry failed, as far as the probe can tell. The core's SOCKS inbound
 * answers "connected" before its outbound dials, so through it a refused port, a dropped
 * handshake and a refused credential all look alike: a connection that closes or never
 * answers. The entry's own address is then dialed directly from the same machine (the same
 * path a censor sees), and for TLS the handshake is tried with the entry's SNI and ALPN.
 * Only failures pay for this.
 */
const diagnosisTimeoutMs = 5_000;

type Step = { ok: true } | { ok: false; error: string };

function dialTcp(host: string, port: number): Promise<Step> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port, timeout: diagnosisTimeoutMs });
    const finish = (step: Step) => {
      socket.destroy();
      resolve(step);
    };
    socket.once("connect", () => finish({ ok: true }));
    socket.once("timeout", () =>
      finish({ ok: false, error: `no TCP answer within ${diagnosisTimeoutMs / 1000} s` }),
    );
    socket.once("error", (error) => finish({ ok: false, error: describeSocketError(error) }));
  });
}

function handshakeTls(
  host: string,
  port: number,
  servername: string | undefined,
  alpn: string[] | undefined,
) {
  return new Promise<Step>((resolve) => {
    const socket = tlsConnect({
      host,
      port,
      servername,
      ALPNProtocols: alpn,
      timeout: diagnosisTimeoutMs,
    });
    const finish = (step: Step) => {
      socket.destroy();
      resolve(step);
    };
    socket.once("secureConnect", () => finish({ ok: true }));
    socket.once("timeout", () =>
      finish({ ok: false, error: `no TLS answer within ${diagnosisTimeoutMs / 1000} s` }),
    );
    socket.once("error", (error) => finish({ ok: false, error: describeSocketError(error) }));
  });
}

/** `failure` as the fetch saw it, with what a direct dial of the entry adds. */
export async function diagnose(entry: ProbeEntry, failure: string): Promise<string> {
  const host = entry.address.replace(/^\[|\]$/g, "");
  const { port, security, sni, alpn } = entry.inbound;
  const where = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  const tcp = await dialTcp(host, port);
  if (!tcp.ok) return `${tcp.error} (${where})`;
  if (security === "tls") {
    const servername = sni || (isIP(host) ? undefined : host);
    const tls = await handshakeTls(host, port, servername, alpn);
    if (!tls.ok) return `TLS handshake failed: ${tls.error} (${where})`;
  }
  return `${failure}: ${where} accepts connections, but nothing came back through the entry (credential refused, or the transport differs)`;
}
