import { isIPv4, isIPv6 } from "node:net";
import { parseTrustedProxies } from "./client-address";
import { days, type Environment, flag, oneOf, refuse, textOf, wholeNumber } from "./config-values";
import { parseTaxationSystem, parseVat, type ReceiptSettings } from "./fiscal-settings";
import { type LogLevel, logLevels } from "./logger";

const appModes = ["demo", "production"] as const;
export type AppMode = (typeof appModes)[number];

const sbpPayerPhoneValues = ["off", "required"] as const;
export type SbpPayerPhone = (typeof sbpPayerPhoneValues)[number];
const supportSecondFactorValues = ["optional", "required"] as const;
export type SupportSecondFactor = (typeof supportSecondFactorValues)[number];

/**
 * Every setting the server reads, parsed and checked once at start (loadConfig) and never
 * changed after: a start step that adds a value makes a new frozen copy (configWith).
 */
export type Config = Readonly<{
  port: number;
  /**
   * HOST: the address to listen on, e.g. 127.0.0.1 when the proxy runs on the same machine;
   * unset means every interface (IPv4 and IPv6), as Bun does by default.
   */
  host: string | undefined;
  /** The SQLite file (DATABASE_PATH); with DATABASE_URL set it is not opened. */
  databasePath: string;
  /**
   * DATABASE_URL: the PostgreSQL database that any number of instances share (DESIGN §15);
   * unset means the embedded SQLite file.
   */
  databaseUrl: string | undefined;
  dataDirectory: string;
  /**
   * The public origin, without a trailing slash: links in e-mails, hreflang, the HSTS
   * decision. Demo mode without PUBLIC_URL uses `http://localhost:{PORT}`.
   */
  publicUrl: string;
  /** Whether publicUrl is the demo default rather than a configured PUBLIC_URL. */
  isPublicUrlDefault: boolean;
  /**
   * SUBSCRIPTION_URL: the origin subscription links are issued on (`{it}/sub/{token}`),
   * without a trailing slash; PUBLIC_URL when unset. A second domain for the apps' fetches,
   * so moving them (a blocked domain) leaves the cabinet where it is. `/sub/{token}` answers
   * on any host the server is reached under; a fetch on another host is told the new one
   * (Happ's `new-domain`).
   */
  subscriptionUrl: string;
  /** Whether SUBSCRIPTION_URL was set. */
  isSubscriptionUrlSet: boolean;
  /**
   * HAPP_PROVIDER_ID: the provider id happ-proxy.com gives; Happ reads `new-domain` only
   * from a subscription that carries one (its "advanced parameters").
   */
  happProviderId: string | undefined;
  /** SMTP_URL (smtp:// or smtps://, credentials inside); unset means the embedded outbox (demo only). */
  smtpUrl: string | undefined;
  /** Renewal attempts claimed per transaction (RENEWAL_BATCH_SIZE, 1–5000, default 500). */
  renewalBatchSize: number;
  /**
   * Renewal charges a pass keeps in flight at once (RENEWAL_CONCURRENCY, 1–256, default 32;
   * 1 charges one card at a time): a real bank answers in hundreds of milliseconds.
   */
  renewalConcurrency: number;
  /** Seconds between the scheduler's passes (BILLING_INTERVAL_SECONDS, 0–86400, default 60); 0: none. */
  billingIntervalSeconds: number;
  /**
   * SANDBOX_LATENCY_MS (0–60000, default 0): the embedded sandbox bank answers each call of
   * its server API this long after it did the work, as slowly as a real bank, and the payer's
   * bank decides an SBP autopay charge as long again after its answer. Demo only.
   */
  sandboxLatencyMs: number;
  /** SANDBOX_JITTER_MS (0 to the latency, default 0): each answer comes latency ± up to this. */
  sandboxJitterMs: number;
  /**
   * SANDBOX_NOTIFICATION_URL: where the embedded sandbox bank posts its notifications
   * (`{url}/check`, `/pay`, `/fail`, `/refund`), as the real gateway posts to the URLs set in
   * the merchant's account; unset, to this instance itself. So an instance can be only the
   * bank of a shop in another process with a database of its own. Demo only.
   */
  sandboxNotificationUrl: string | undefined;
  /**
   * NODE_LINK_GBPS (1–1000, default 10): the fastest link a VPN node has, in gigabits per
   * second. A node's traffic sample above what such a link carries in the sample's period is
   * refused (DESIGN §8): no device moves more bytes than its node's link can.
   */
  nodeLinkGbps: number;
  /** Connection logs are deleted after LOG_RETENTION_DAYS (90). */
  logRetentionDays: number;
  /** Addresses of connections and payments are cut to their network after IP_RETENTION_DAYS (30). */
  ipRetentionDays: number;
  /** METRICS_TOKEN: a bearer that may read /metrics; without it only a loopback peer may. */
  metricsToken: string | undefined;
  /** The From of every message: MAIL_FROM, or `Kannt <no-reply@{host of publicUrl}>`. */
  mailFrom: string;
  mode: AppMode;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  /**
   * JWT_SECRET, and CLOUDPAYMENTS_API_SECRET below: empty when not configured, until the
   * start generates it (prepareDataFolder into the data folder, or with DATABASE_URL
   * adoptSharedSecrets into the database).
   */
  jwtSecret: string;
  googleClientId: string | undefined;
  yandexClientId: string | undefined;
  cloudPaymentsPublicId: string | undefined;
  cloudPaymentsApiSecret: string;
  cloudPaymentsApiUrl: string | undefined;
  /**
   * YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY: the YooKassa shop's HTTP Basic pair. In demo
   * mode, empty when not configured until the start generates them (like
   * CLOUDPAYMENTS_API_SECRET); in production both or neither, and neither means no YooKassa.
   */
  yooKassaShopId: string;
  yooKassaSecretKey: string;
  /**
   * YOOKASSA_API_URL, without a trailing slash: another base for the YooKassa API. Unset in
   * demo mode means the embedded sandbox; in production, https://api.yookassa.ru.
   */
  yooKassaApiUrl: string | undefined;
  /**
   * SBP_PAYER_PHONE (`off`, the default, or `required`): whether each SBP QR carries the
   * payer's phone, as some CloudPayments terminal categories require; then the purchase
   * screens ask for it and an SBP order without one is refused.
   */
  sbpPayerPhone: SbpPayerPhone;
  /** Whether support staff, like administrators, must have a second factor (DESIGN §12). */
  supportSecondFactor: SupportSecondFactor;
  recaptchaSiteKey: string | undefined;
  recaptchaSecret: string | undefined;
  /** Proxies whose X-Forwarded-For hops are believed (DESIGN §12); empty: only the socket's peer counts. */
  trustedProxies: readonly string[];
  /** The staff captcha's proof of work: the largest number the browser may have to try. */
  altchaMaxNumber: number;
  /** What every 54-FZ receipt states: TAXATION_SYSTEM and RECEIPT_VAT. */
  receipts: Readonly<ReceiptSettings>;
  /** The built site (STATIC_DIR, default `dist`). */
  staticDirectory: string;
  /** LOG_LEVEL; unset keeps the logger's default (info, and nothing under the test runner). */
  logLevel: LogLevel | undefined;
  /** SKIP_BUILD: `npm start` serves the site as it was built, however old. */
  skipBuild: boolean;
}>;

const optional = textOf;

/**
 * About a second of work in Chromium on a 2-core machine (docs/operators/security.md, "Staff login"): each
 * guess costs something, staff hardly wait. Tunable for slower or faster staff machines.
 */
export const defaultAltchaMaxNumber = 400_000;

/**
 * SMTP_URL must name an SMTP server. The value holds the password, so no message ever
 * repeats it: only its scheme is quoted.
 */
function parseSmtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname) {
    const scheme = url ? `a ${url.protocol}// URL` : "not a URL";
    throw new Error(
      `SMTP_URL must be an smtp:// or smtps:// URL with the user and password in it (smtps://user:password@mail.example:465), got ${scheme}.`,
    );
  }
  return raw;
}

/**
 * DATABASE_URL must name a PostgreSQL database: a mistyped scheme must stop the server
 * rather than quietly run it on a SQLite file of its own. The value holds the password,
 * so no message ever repeats it: only its scheme is quoted.
 */
function parseDatabaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (/^postgres(?:ql)?:\/\//i.test(raw)) return raw;
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(raw)?.[0];
  throw new Error(
    `DATABASE_URL must be a postgres:// or postgresql:// URL (postgres://user:password@db.example:5432/kannt), got ${scheme ? `one starting with "${scheme}"` : "something that is not a URL"}; leave it unset to use the SQLite file at DATABASE_PATH.`,
  );
}

/** METRICS_TOKEN: a bearer that may read /metrics from anywhere; short ones are guessable. */
function parseMetricsToken(raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.length < 24)
    throw new Error(
      `METRICS_TOKEN must be at least 24 characters (e.g. \`openssl rand -hex 24\`), got ${raw.length}.`,
    );
  return raw;
}

/** One DNS name: dot-separated labels of letters, digits and inner hyphens. */
const hostNamePattern =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * HOST: an IP address (IPv6 with or without brackets) or a host name, nothing more. A port
 * or scheme written into it, or a mistyped address, stops the start here with a message
 * rather than in the listener with a resolver error.
 */
function parseHost(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const unbracketed = /^\[(.*)\]$/.exec(raw)?.[1] ?? raw;
  if (isIPv6(unbracketed)) return unbracketed;
  // All digits and dots is meant as an IPv4 address, so it must be one (not 10.0.0.300).
  const isIpv4Shaped = /^[\d.]+$/.test(raw);
  if (isIpv4Shaped ? isIPv4(raw) : hostNamePattern.test(raw)) return raw;
  throw new Error(
    `HOST must be the address to listen on: an IP address (127.0.0.1 for this machine only, 0.0.0.0 or :: for every interface) or a host name, without a scheme or port (the port is PORT); got "${raw}".`,
  );
}

/**
 * SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS: how slowly the sandbox bank answers, so tests
 * and benches meet a bank as slow as a real one (DESIGN §10). The jitter is at most the
 * latency: no answer is due before its call was made.
 */
function parseSandboxLatency(environment: Environment) {
  const milliseconds = { min: 0, max: 60_000, fallback: 0, unit: "milliseconds" };
  const latencyMs = wholeNumber(
    "SANDBOX_LATENCY_MS",
    optional(environment, "SANDBOX_LATENCY_MS"),
    milliseconds,
  );
  const rawJitter = optional(environment, "SANDBOX_JITTER_MS");
  const jitterMs = wholeNumber("SANDBOX_JITTER_MS", rawJitter, milliseconds);
  if (rawJitter !== undefined && jitterMs > latencyMs) {
    const latency =
      optional(environment, "SANDBOX_LATENCY_MS") === undefined ? "0 while it is unset" : latencyMs;
    refuse("SANDBOX_JITTER_MS", `at most SANDBOX_LATENCY_MS (${latency})`, rawJitter);
  }
  return { sandboxLatencyMs: latencyMs, sandboxJitterMs: jitterMs };
}

/**
 * SANDBOX_NOTIFICATION_URL: an http(s) URL, without a trailing slash. Only an instance that
 * is its own sandbox bank sends notifications: with CLOUDPAYMENTS_API_URL it has none, and
 * the setting would be ignored without a word.
 */
function parseSandboxNotificationUrl(environment: Environment, mode: AppMode): string | undefined {
  const raw = optional(environment, "SANDBOX_NOTIFICATION_URL");
  if (raw === undefined) return undefined;
  const url = raw.replace(/\/+$/, "");
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  // The kind of notification is appended to it as a path: a query or fragment would swallow it.
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash)
    refuse(
      "SANDBOX_NOTIFICATION_URL",
      "an http:// or https:// URL without a query, under which the sandbox bank posts its notifications (http://127.0.0.1:3001/api/payments/cloudpayments)",
      raw,
    );
  // Production refuses the setting itself (assertProductionIsReal), saying why.
  if (mode === "demo" && optional(environment, "CLOUDPAYMENTS_API_URL") !== undefined)
    throw new Error(
      "SANDBOX_NOTIFICATION_URL is read only by an instance that is its own sandbox bank, and with CLOUDPAYMENTS_API_URL set this one has none: unset one of them.",
    );
  return url;
}

/** Settings only the demo's sandbox bank reads: production has none. */
const demoOnlySettings = ["SANDBOX_LATENCY_MS", "SANDBOX_JITTER_MS", "SANDBOX_NOTIFICATION_URL"] as const;

/** Settings that make the server talk to a real provider, bank or captcha service. */
const realSettings = [
  "GOOGLE_CLIENT_ID",
  "YANDEX_CLIENT_ID",
  "CLOUDPAYMENTS_PUBLIC_ID",
  "CLOUDPAYMENTS_API_URL",
  "YOOKASSA_API_URL",
  "RECAPTCHA_SITE_KEY",
  "RECAPTCHA_SECRET",
] as const;

/**
 * An unset APP_MODE means demo only while nothing real is configured: a server wired to
 * the real bank must never come up with the test clock and billing controls exposed
 * because somebody forgot one variable. (CLOUDPAYMENTS_API_SECRET alone is not real: the
 * embedded sandbox gateway signs with it; nor is YooKassa's shop id and secret key without
 * YOOKASSA_API_URL: in demo mode the embedded YooKassa sandbox accepts exactly that pair.)
 */
function parseMode(environment: Environment): AppMode {
  const raw = optional(environment, "APP_MODE");
  if (raw !== undefined)
    return oneOf("APP_MODE", raw, appModes, { fallback: "demo", accepts: '"demo" or "production"' });
  const real = realSettings.filter((name) => optional(environment, name) !== undefined);
  if (real.length > 0) {
    throw new Error(
      `APP_MODE is not set but ${real.join(", ")} ${real.length === 1 ? "is" : "are"} configured: set APP_MODE=production to run with them, or APP_MODE=demo to run the demo on purpose.`,
    );
  }
  return "demo";
}

/**
 * Reads the whole configuration once, at start, and writes nothing: the data folder and
 * the secrets generated into it are made by the start's own step (prepareDataFolder).
 * Everything is optional: with no environment at all the product runs in demo mode, so
 * `npm start` needs no setup. A value a variable does not take stops here, naming it.
 */
export function loadConfig(environment: Environment = process.env): Config {
  const databasePath = optional(environment, "DATABASE_PATH") ?? "data/app.db";
  const dataDirectory =
    databasePath === ":memory:" ? "data" : databasePath.replace(/[/\\][^/\\]*$/, "") || ".";
  const mode = parseMode(environment);
  const port = wholeNumber("PORT", optional(environment, "PORT"), { min: 0, max: 65535, fallback: 3000 });
  const configuredPublicUrl = optional(environment, "PUBLIC_URL")?.replace(/\/+$/, "");
  const publicUrl = configuredPublicUrl ?? `http://localhost:${port}`;
  const configuredSubscriptionUrl = parseSubscriptionUrl(optional(environment, "SUBSCRIPTION_URL"));
  const config = freeze({
    port,
    host: parseHost(optional(environment, "HOST")),
    databasePath,
    databaseUrl: parseDatabaseUrl(optional(environment, "DATABASE_URL")),
    dataDirectory,
    publicUrl,
    isPublicUrlDefault: configuredPublicUrl === undefined,
    subscriptionUrl: configuredSubscriptionUrl ?? publicUrl,
    isSubscriptionUrlSet: configuredSubscriptionUrl !== undefined,
    happProviderId: parseHappProviderId(optional(environment, "HAPP_PROVIDER_ID")),
    smtpUrl: parseSmtpUrl(optional(environment, "SMTP_URL")),
    renewalBatchSize: wholeNumber("RENEWAL_BATCH_SIZE", optional(environment, "RENEWAL_BATCH_SIZE"), {
      min: 1,
      max: 5000,
      fallback: 500,
    }),
    renewalConcurrency: wholeNumber("RENEWAL_CONCURRENCY", optional(environment, "RENEWAL_CONCURRENCY"), {
      min: 1,
      max: 256,
      fallback: 32,
    }),
    billingIntervalSeconds: wholeNumber(
      "BILLING_INTERVAL_SECONDS",
      optional(environment, "BILLING_INTERVAL_SECONDS"),
      { min: 0, max: 86_400, fallback: 60, unit: "seconds", note: "0 turns the renewal scheduler off" },
    ),
    ...parseSandboxLatency(environment),
    sandboxNotificationUrl: parseSandboxNotificationUrl(environment, mode),
    metricsToken: parseMetricsToken(optional(environment, "METRICS_TOKEN")),
    nodeLinkGbps: wholeNumber("NODE_LINK_GBPS", optional(environment, "NODE_LINK_GBPS"), {
      min: 1,
      max: 1000,
      fallback: 10,
      unit: "gigabits per second",
    }),
    logRetentionDays: days("LOG_RETENTION_DAYS", optional(environment, "LOG_RETENTION_DAYS"), 90),
    ipRetentionDays: days("IP_RETENTION_DAYS", optional(environment, "IP_RETENTION_DAYS"), 30),
    mailFrom: optional(environment, "MAIL_FROM") ?? defaultMailFrom(publicUrl),
    mode,
    adminUsername: optional(environment, "ADMIN_USERNAME"),
    adminPassword: optional(environment, "ADMIN_PASSWORD"),
    jwtSecret: optional(environment, "JWT_SECRET") ?? "",
    googleClientId: optional(environment, "GOOGLE_CLIENT_ID"),
    yandexClientId: optional(environment, "YANDEX_CLIENT_ID"),
    cloudPaymentsPublicId: optional(environment, "CLOUDPAYMENTS_PUBLIC_ID"),
    cloudPaymentsApiSecret: optional(environment, "CLOUDPAYMENTS_API_SECRET") ?? "",
    cloudPaymentsApiUrl: optional(environment, "CLOUDPAYMENTS_API_URL"),
    ...parseYooKassa(environment, mode),
    sbpPayerPhone: oneOf("SBP_PAYER_PHONE", optional(environment, "SBP_PAYER_PHONE"), sbpPayerPhoneValues, {
      fallback: "off",
      accepts:
        '"off" (no phone with SBP QRs) or "required" (the terminal\'s category asks for the payer\'s phone)',
    }),
    supportSecondFactor: oneOf(
      "SUPPORT_SECOND_FACTOR",
      optional(environment, "SUPPORT_SECOND_FACTOR"),
      supportSecondFactorValues,
      {
        fallback: "optional",
        accepts:
          '"optional" (support staff may add a second factor) or "required" (they must, as administrators must)',
      },
    ),
    recaptchaSiteKey: optional(environment, "RECAPTCHA_SITE_KEY"),
    recaptchaSecret: optional(environment, "RECAPTCHA_SECRET"),
    trustedProxies: parseTrustedProxies(optional(environment, "TRUSTED_PROXIES")),
    altchaMaxNumber: wholeNumber("ALTCHA_MAX_NUMBER", optional(environment, "ALTCHA_MAX_NUMBER"), {
      min: 1000,
      max: 100_000_000,
      fallback: defaultAltchaMaxNumber,
    }),
    receipts: {
      taxationSystem: parseTaxationSystem(optional(environment, "TAXATION_SYSTEM")),
      vat: parseVat(optional(environment, "RECEIPT_VAT")),
    },
    staticDirectory: optional(environment, "STATIC_DIR") ?? "dist",
    logLevel: oneOf("LOG_LEVEL", optional(environment, "LOG_LEVEL"), logLevels, {
      fallback: undefined,
      accepts: '"debug", "info", "warn" or "error"',
    }),
    skipBuild: flag("SKIP_BUILD", optional(environment, "SKIP_BUILD"), false),
  });
  assertProductionIsReal(config, environment);
  return config;
}

/** A frozen copy with some values replaced: how a start step adds what it made or learned. */
export function configWith(config: Config, changes: Partial<Config>): Config {
  return freeze({ ...config, ...changes });
}

function freeze(config: Config): Config {
  Object.freeze(config.trustedProxies);
  Object.freeze(config.receipts);
  return Object.freeze(config);
}

/**
 * Production must not silently fall back to the demo identity provider or the sandbox bank,
 * nor quietly ignore a setting only the demo reads.
 */
function assertProductionIsReal(config: Config, environment: Environment): void {
  if (config.mode !== "production") return;
  const demoOnly = demoOnlySettings.filter((name) => optional(environment, name) !== undefined);
  if (demoOnly.length > 0) {
    const names = `${demoOnly.slice(0, -1).join(", ")}${demoOnly.length > 1 ? " and " : ""}${demoOnly.at(-1)}`;
    throw new Error(
      `APP_MODE=production has no sandbox bank: unset ${names}, which only the demo's sandbox bank reads.`,
    );
  }
  const missing = [
    ["PUBLIC_URL", config.isPublicUrlDefault ? undefined : config.publicUrl],
    ["JWT_SECRET", optional(environment, "JWT_SECRET")],
    ["GOOGLE_CLIENT_ID", config.googleClientId],
    ["YANDEX_CLIENT_ID", config.yandexClientId],
    ["CLOUDPAYMENTS_PUBLIC_ID", config.cloudPaymentsPublicId],
    ["CLOUDPAYMENTS_API_SECRET", optional(environment, "CLOUDPAYMENTS_API_SECRET")],
    ["CLOUDPAYMENTS_API_URL", config.cloudPaymentsApiUrl],
    // Without it customers would get no renewal notice, and so no renewal (DESIGN §13(a)).
    ["SMTP_URL", config.smtpUrl],
  ]
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new Error(
      `APP_MODE=production refuses the demo parts; set ${missing.join(", ")} (see .env.example).`,
    );
  }
  const jwtSecret = optional(environment, "JWT_SECRET") ?? "";
  if (Buffer.byteLength(jwtSecret) < minimumSecretBytes) {
    throw new Error(
      `APP_MODE=production needs a JWT_SECRET of at least ${minimumSecretBytes} bytes (e.g. \`openssl rand -base64 48\`).`,
    );
  }
  // Length alone lets "aaaa…" or "abab…" through; random hex already has 16 symbols.
  if (new Set(jwtSecret).size < minimumSecretSymbols) {
    throw new Error(
      `APP_MODE=production needs a JWT_SECRET of at least ${minimumSecretSymbols} different characters, not a repeated pattern (e.g. \`openssl rand -base64 48\`).`,
    );
  }
  for (const [name, value] of [
    ["PUBLIC_URL", config.publicUrl],
    ["SUBSCRIPTION_URL", config.subscriptionUrl],
    ["CLOUDPAYMENTS_API_URL", config.cloudPaymentsApiUrl],
    ["YOOKASSA_API_URL", config.yooKassaApiUrl],
  ] as const) {
    if (value !== undefined && !isHttpsUrl(value))
      throw new Error(`APP_MODE=production needs ${name} to be an https:// URL, got "${value}".`);
  }
}

const minimumSecretBytes = 32;

/**
 * YooKassa, the second provider (DESIGN §6). Production takes it only whole: a shop id
 * without its secret key (or the reverse) is a typo that would surface as refused charges,
 * so it stops the start. The API URL is an http(s) base without a query (paths are added
 * to it); production wants https (assertProductionIsReal).
 */
function parseYooKassa(environment: Environment, mode: AppMode) {
  const shopId = optional(environment, "YOOKASSA_SHOP_ID");
  const secretKey = optional(environment, "YOOKASSA_SECRET_KEY");
  if (mode === "production" && (shopId === undefined) !== (secretKey === undefined))
    throw new Error(
      `APP_MODE=production takes YooKassa with both YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY, or neither; ${shopId === undefined ? "YOOKASSA_SHOP_ID" : "YOOKASSA_SECRET_KEY"} is missing.`,
    );
  const rawUrl = optional(environment, "YOOKASSA_API_URL");
  const apiUrl = rawUrl?.replace(/\/+$/, "");
  if (rawUrl !== undefined) {
    const parsed = apiUrl && URL.canParse(apiUrl) ? new URL(apiUrl) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash)
      refuse(
        "YOOKASSA_API_URL",
        "an http:// or https:// base URL without a query (https://api.yookassa.ru)",
        rawUrl,
      );
  }
  return { yooKassaShopId: shopId ?? "", yooKassaSecretKey: secretKey ?? "", yooKassaApiUrl: apiUrl };
}
const minimumSecretSymbols = 8;

/** An http(s) origin (a path is kept: links add `/sub/{token}` to it), without a trailing slash. */
function parseSubscriptionUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.replace(/\/+$/, "");
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash)
    throw new Error(
      `SUBSCRIPTION_URL must be an http(s) origin such as https://sub.kannt.app, got "${value}".`,
    );
  return trimmed;
}

/** Happ's provider ids are 8 letters and digits (happ-proxy.com's API: provider_code). */
function parseHappProviderId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9]{8}$/.test(value))
    throw new Error(
      `HAPP_PROVIDER_ID must be the 8 letters and digits happ-proxy.com shows, got "${value}".`,
    );
  return value;
}

/** `Kannt <no-reply@host>` on the public origin's host (`localhost` in the demo). */
function defaultMailFrom(publicUrl: string): string {
  let host = "localhost";
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // A PUBLIC_URL that is no URL: production refuses it below; the demo mails from localhost.
  }
  return `Kannt <no-reply@${host}>`;
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}
