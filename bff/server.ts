import { createApp, createContext } from "./app";
import { startMailWorker } from "./jobs/mail-worker";
import { startRenewalScheduler } from "./jobs/scheduler";
import { subscriptionPathPrefix } from "./modules/access/subscription";
import { ensureFirstOperator } from "./modules/operators/accounts";
import { operatorRequest } from "./operator-control";
import { peerOf, withPeerAddress, withPeerSource } from "./platform/client-address";
import { OffsetClock } from "./platform/clock";
import { followClockOffset, loadClockOffset } from "./platform/clock-offset";
import { type Config, configWith, loadConfig } from "./platform/config";
import type { Environment } from "./platform/config-values";
import { controlSocketPath, startControlSocket } from "./platform/control-socket";
import { prepareDataFolder } from "./platform/data-folder";
import { openDatabase } from "./platform/database";
import { withBoundedBody } from "./platform/input-guard";
import { logger, setLogLevel } from "./platform/logger";
import { metricsResponse } from "./platform/metrics-endpoint";
import { createRouteNamer } from "./platform/route-patterns";
import { backupRequest } from "./platform/sqlite-backup";
import { pathOf } from "./platform/url-path";
import { baseSecurityHeaders } from "./security-headers";
import { createStaticSite } from "./static-site";

/** One process: the static site and /api/* on one port (DESIGN §2). */
export async function startServer(environment: Environment = process.env) {
  return startConfiguredServer(loadConfig(environment));
}

/** The start of a configuration already loaded (`npm start` reads it before building the site). */
export async function startConfiguredServer(loaded: Config) {
  setLogLevel(loaded.logLevel);
  const config = prepareDataFolder(loaded);
  const database = await openDatabase(config);
  const clock = new OffsetClock(config.mode === "demo" ? await loadClockOffset(database) : 0);
  // Several instances on one database share one test clock (DESIGN §15).
  if (config.mode === "demo") followClockOffset(database, clock);
  const stopping = new AbortController();
  const context = await createContext(config, database, clock, { stopping: stopping.signal });
  const first = await ensureFirstOperator(database, config.adminUsername, config.adminPassword, clock.now());
  if (first?.generatedPassword) {
    // Printed once: the only place this password ever appears.
    console.log(
      `First panel operator "${first.username}" created; password (shown once): ${first.generatedPassword}`,
    );
  }
  const app = createApp(context);
  const site = createStaticSite(config.staticDirectory, config);
  const securityHeaders = baseSecurityHeaders(config);
  const isDemoPage = (path: string) =>
    config.mode !== "demo" && /^\/(?:(?:ru|en|zh|kk)\/)?dev-(?:idp|mail|sbp)(?:[/.]|$)/.test(path);
  // Requests are measured by route pattern, never by concrete path (route-patterns.ts).
  const routeOf = createRouteNamer(app.routes);
  context.metrics.collectProcessMetrics();
  const unanswered = () => {};
  /** The static site, and /metrics beside it (DESIGN §16). */
  const answerOutsideApi = (request: Request, pathname: string): Response | Promise<Response> => {
    if (pathname === "/metrics")
      return metricsResponse(request, context.metrics, config.metricsToken, securityHeaders);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("Method not allowed", {
        status: 405,
        headers: { ...securityHeaders, allow: "GET, HEAD" },
      });
    }
    if (isDemoPage(pathname)) return new Response("Not found", { status: 404, headers: securityHeaders });
    return site.handle(request, pathname);
  };

  /** The app's answer; a body without a declared length is first read, up to the limit. */
  const answerInApp = (request: Request, method: string): Response | Promise<Response> => {
    // Most requests declare their length or have no body: the body is not touched for them
    // (asking Bun for it makes a stream the app would then read through).
    if (method === "GET" || method === "HEAD" || request.headers.has("content-length"))
      return app.handle(request);
    const body = request.body;
    if (body === null) return app.handle(request);
    const peer = peerOf(request);
    return withBoundedBody(request, body).then(
      (bounded) => app.handle(withPeerAddress(bounded, peer)),
      // The sender went away in the middle of its body: nobody reads this answer.
      () => new Response(null, { status: 400, headers: securityHeaders }),
    );
  };

  const server = Bun.serve({
    // Unset: every interface. Behind a proxy on this machine, HOST=127.0.0.1 (deploy/).
    hostname: config.host,
    port: config.port,
    development: false,
    // The limit is the app's (input-guard.ts), which answers in words and with the security
    // headers; Bun's own 413 has neither. Bun holds no body nobody reads, and skips the unread
    // rest of a refused one to find the next request on the connection.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // An idle keep-alive connection is closed by the client or the proxy first (Caddy's is
    // 60 s, deploy/caddy): one the server closed as a request was being written on it resets
    // that request, and nobody resends a POST. Bun's own default is 10 s.
    idleTimeout: idleSeconds,
    fetch(request, server) {
      const startedAt = performance.now();
      // The socket's peer; client-sent headers only count behind TRUSTED_PROXIES.
      withPeerSource(request, server);
      const pathname = pathOf(request.url);
      // A whole billing pass answers only when it is done; the idle limit would cut it off.
      if (pathname === "/api/dev/billing/run") server.timeout(request, 0);
      const isApi = pathname === "/api" || pathname.startsWith("/api/");
      // The subscription URL is the app's too (modules/access/subscription), named by its pattern.
      const isSubscription = pathname.startsWith(subscriptionPathPrefix);
      const method = request.method;
      const route = isSubscription
        ? `${subscriptionPathPrefix}:token`
        : isApi
          ? routeOf(method, pathname)
          : pathname === "/metrics"
            ? "/metrics"
            : "site";
      const answer =
        isApi || isSubscription ? answerInApp(request, method) : answerOutsideApi(request, pathname);
      // Measured when the answer is ready, without one more promise for Bun to wait on (every
      // request passes here). A failed answer is `error` below's, as before.
      if (answer instanceof Promise)
        answer.then(
          (response) => context.metrics.observeRequest(method, route, response.status, startedAt),
          unanswered,
        );
      else context.metrics.observeRequest(method, route, answer.status, startedAt);
      return answer;
    },
    error(error) {
      logger.error("request failed", { error: error.stack ?? error.message });
      return new Response("Internal error", { status: 500, headers: securityHeaders });
    },
  });
  // PORT=0 (tests): the demo's default public origin is only known now. Links in mails use it;
  // the modules read it through the context, which gets a copy with it (none changes in place).
  if (config.isPublicUrlDefault && config.port === 0)
    context.config = configWith(context.config, { publicUrl: `http://localhost:${server.port}` });
  const billingInterval = config.billingIntervalSeconds;
  const stopScheduler =
    billingInterval > 0 ? startRenewalScheduler(context, billingInterval * 1000) : () => {};
  const mailWorker = startMailWorker(context);
  /** Lets the message being sent finish and be recorded, then closes the mail connections. */
  const stopMail = async () => {
    await mailWorker.stop();
    context.mail.close();
  };
  // `npm run backup` asks the server for the copy: nothing else may read the file it holds.
  const control =
    config.databaseUrl === undefined && config.databasePath !== ":memory:"
      ? await startControlSocket({
          path: controlSocketPath(config.dataDirectory),
          databasePath: config.databasePath,
          database,
          handlers: { "POST /backup": backupRequest, "POST /operator": operatorRequest },
        })
      : undefined;
  /** Stops the control socket (a backup under way is finished first). */
  const stopControl = async () => {
    await control?.stop();
  };
  if (!site.isBuilt)
    logger.warn("site not built; serving the API only", { directory: config.staticDirectory });
  logger.info("listening", {
    url: server.url.origin,
    host: config.host ?? "every interface",
    mode: config.mode,
    mail: context.mail.kind,
  });
  /**
   * A clean stop (DESIGN §16): stop listening at once, let in-flight requests be answered and
   * the renewal batch under way finish (passes start no other), then the mail being sent,
   * the control socket and the database.
   */
  let stopped: Promise<void> | undefined;
  const shutdown = () => {
    stopped ??= (async () => {
      stopping.abort();
      await Promise.all([server.stop(), stopScheduler()]);
      await stopControl();
      await stopMail();
      await database.close();
    })();
    return stopped;
  };
  return {
    server,
    database,
    config: context.config,
    context,
    stopScheduler,
    stopMail,
    stopControl,
    shutdown,
  };
}

/** Longer than any proxy's or client's keep-alive in front (and than an agent's 20 s long poll). */
const idleSeconds = 75;

/** Past this, a stop that has not finished ends the process anyway (DESIGN §16: 15 s). */
const shutdownLimitMs = 14_000;

/**
 * SIGTERM (what supervisors send) and SIGINT (Ctrl-C) stop the server cleanly and exit 0.
 * Work cut short by the limit is safe to cut: renewal attempts are committed before they
 * are sent and settled by a later pass, unsent mail stays in the outbox.
 */
export function stopOnSignals(started: { shutdown(): Promise<void> }): void {
  const stop = (signal: string) => {
    logger.info("stopping", { signal });
    setTimeout(() => {
      logger.warn("stop took too long; exiting with work left for the next start", {
        limitMs: shutdownLimitMs,
      });
      process.exit(0);
    }, shutdownLimitMs).unref();
    started.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error("stop failed", { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

if (import.meta.main) stopOnSignals(await startServer());
