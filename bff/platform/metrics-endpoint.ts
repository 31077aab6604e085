import { timingSafeEqual } from "node:crypto";
import { peerOf } from "./client-address";
import type { Metrics } from "./metrics";

const isLoopback = (address: string) => address === "::1" || address.startsWith("127.");

/** Compared in constant time, so the token cannot be found a character at a time. */
function isBearer(request: Request, token: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const given = Buffer.from(header.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether any proxy header is present. Proxies differ in what they add (X-Forwarded-For,
 * -Host, -Proto, X-Real-IP, Forwarded), and one configured to send only some of them
 * still makes its requests come from loopback, so any of them means "not this machine".
 */
function isProxied(request: Request): boolean {
  for (const name of request.headers.keys())
    if (name.startsWith("x-forwarded-") || name === "x-real-ip" || name === "forwarded") return true;
  return false;
}

/**
 * Who may read the metrics (DESIGN §16): a scraper on this machine, by the socket's own
 * peer and only when no proxy forwarded the request (a local reverse proxy's requests also
 * come from loopback), or anyone with the METRICS_TOKEN bearer.
 */
function mayRead(request: Request, token: string | undefined): boolean {
  if (token !== undefined && isBearer(request, token)) return true;
  return !isProxied(request) && isLoopback(peerOf(request));
}

/** GET /metrics: the Prometheus text of this instance. */
export async function metricsResponse(
  request: Request,
  metrics: Metrics,
  token: string | undefined,
  headers: Record<string, string>,
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD")
    return new Response("Method not allowed\n", { status: 405, headers: { ...headers, allow: "GET, HEAD" } });
  if (!mayRead(request, token)) {
    return new Response(
      "Metrics are read from this machine, or with the METRICS_TOKEN bearer (Authorization: Bearer …).\n",
      { status: 403, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } },
    );
  }
  return new Response(request.method === "HEAD" ? null : await metrics.registry.metrics(), {
    headers: { ...headers, "content-type": metrics.registry.contentType, "cache-control": "no-store" },
  });
}
