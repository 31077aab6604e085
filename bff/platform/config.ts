import { isIPv4, isIPv6 } from "node:net";
import { basename } from "node:path";
import { parseTrustedProxies } from "./client-address";
import { secureDataFolder } from "./data-folder";
import { parseTaxationSystem, parseVat, type ReceiptSettings } from "./fiscal-settings";
import { readOrCreateSecret } from "./secrets";

export type AppMode = "demo" | "production";

export type Config = {
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
  /** SMTP_URL (smtp:// or smtps://, credentials inside); unset means the embedded outbox (demo only). */
  smtpUrl: string | undefined;
  /** Renewal attempts claimed per transaction (RENEWAL_BATCH_SIZE, 1–5000, default 500). */
  renewalBatchSize: number;
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
  jwtSecret: string;
  googleClientId: string | undefined;
  yandexClientId: string | undefined;
  cloudPaymentsPublicId: string | undefined;
  cloudPaymentsApiSecret: string;
  cloudPaymentsApiUrl: string | undefined;
  recaptchaSiteKey: string | undefined;
  recaptchaSecret: string | undefined;
  /** Proxies whose X-Forwarded-For hops are believed (DESIGN §12); empty: only the socket's peer counts. */
  trustedProxies: string[];
  /** The staff captcha's proof of work: the largest number the browser may have to try. */
  altchaMaxNumber: number;
  /** What every 54-FZ receipt states: TAXATION_SYSTEM and RECEIPT_VAT. */
  receipts: ReceiptSettings;
  staticDirectory: string;
};

type Environment = Record<string, string | undefined>;

function optional(environment: Environment, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value ? value : undefined;
}

/**
 * About a second of work in Chromium on a 2-core machine (README, "Staff login"): each
 * guess costs something, staff hardly wait. Tunable for slower or faster staff machines.
 */
export const defaultAltchaMaxNumber = 400_000;

function parseAltchaMaxNumber(raw: string | undefined): number {
  if (raw === undefined) return defaultAltchaMaxNumber;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1000 || value > 100_000_000) {
    throw new Error(`ALTCHA_MAX_NUMBER must be a whole number from 1000 to 100000000, got "${raw}".`);
  }
  return value;
}

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

function parseBatchSize(raw: string | undefined): number {
  if (raw === undefined) return 500;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 1 || size > 5000)
    throw new Error(`RENEWAL_BATCH_SIZE must be a whole number from 1 to 5000, got "${raw}".`);
  return size;
}

/** METRICS_TOKEN: a bearer that may read /metrics from anywhere; short ones are guessable. */
function parseMetricsToken(raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.length < 24)
    throw new Error(
      `METRICS_TOKEN must be at least 24 characters (e.g. \`openssl rand -hex 24\`), got ${raw.length}.`,
    );
  return raw;
}

function parseDays(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new Error(`${name} must be a whole number of days from 1 to 3650, got "${raw}".`);
  return days;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got "${raw}".`);
  }
  return port;
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

/** Settings that make the server talk to a real provider, bank or captcha service. */
const realSettings = [
  "GOOGLE_CLIENT_ID",
  "YANDEX_CLIENT_ID",
  "CLOUDPAYMENTS_PUBLIC_ID",
  "CLOUDPAYMENTS_API_URL",
  "RECAPTCHA_SITE_KEY",
  "RECAPTCHA_SECRET",
] as const;

/**
 * An unset APP_MODE means demo only while nothing real is configured: a server wired to
 * the real bank must never come up with the test clock and billing controls exposed
 * because somebody forgot one variable. (CLOUDPAYMENTS_API_SECRET alone is not real:
 * the embedded sandbox gateway signs with it.)
 */
function parseMode(environment: Environment): AppMode {
  const raw = optional(environment, "APP_MODE");
  if (raw === "demo" || raw === "production") return raw;
  if (raw !== undefined) throw new Error(`APP_MODE must be "demo" or "production", got "${raw}".`);
  const real = realSettings.filter((name) => optional(environment, name) !== undefined);
  if (real.length > 0) {
    throw new Error(
      `APP_MODE is not set but ${real.join(", ")} ${real.length === 1 ? "is" : "are"} configured: set APP_MODE=production to run with them, or APP_MODE=demo to run the demo on purpose.`,
    );
  }
  return "demo";
}

/**
 * Reads the whole configuration once, at start. Everything is optional: with no
 * environment at all the product runs in demo mode with generated secrets kept in
 * the data folder, so `npm start` needs no setup.
 */
export function loadConfig(environment: Environment = process.env): Config {
  const databasePath = optional(environment, "DATABASE_PATH") ?? "data/app.db";
  const dataDirectory =
    databasePath === ":memory:" ? "data" : databasePath.replace(/[/\\][^/\\]*$/, "") || ".";
  const mode = parseMode(environment);
  // Before any secret is generated into it.
  if (databasePath !== ":memory:") secureDataFolder(dataDirectory, basename(databasePath));
  const port = parsePort(optional(environment, "PORT"));
  const configuredPublicUrl = optional(environment, "PUBLIC_URL")?.replace(/\/+$/, "");
  const publicUrl = configuredPublicUrl ?? `http://localhost:${port}`;
  const databaseUrl = parseDatabaseUrl(optional(environment, "DATABASE_URL"));
  // With a shared database, a generated secret lives in it (shared-secrets.ts), not in
  // one machine's folder: empty here means "generate or read it there".
  const generatedSecret = (name: string) => (databaseUrl ? "" : readOrCreateSecret(dataDirectory, name));
  const config: Config = {
    port,
    host: parseHost(optional(environment, "HOST")),
    databasePath,
    databaseUrl,
    dataDirectory,
    publicUrl,
    isPublicUrlDefault: configuredPublicUrl === undefined,
    smtpUrl: parseSmtpUrl(optional(environment, "SMTP_URL")),
    renewalBatchSize: parseBatchSize(optional(environment, "RENEWAL_BATCH_SIZE")),
    metricsToken: parseMetricsToken(optional(environment, "METRICS_TOKEN")),
    logRetentionDays: parseDays("LOG_RETENTION_DAYS", optional(environment, "LOG_RETENTION_DAYS"), 90),
    ipRetentionDays: parseDays("IP_RETENTION_DAYS", optional(environment, "IP_RETENTION_DAYS"), 30),
    mailFrom: optional(environment, "MAIL_FROM") ?? defaultMailFrom(publicUrl),
    mode,
    adminUsername: optional(environment, "ADMIN_USERNAME"),
    adminPassword: optional(environment, "ADMIN_PASSWORD"),
    jwtSecret: optional(environment, "JWT_SECRET") ?? generatedSecret("jwt-secret"),
    googleClientId: optional(environment, "GOOGLE_CLIENT_ID"),
    yandexClientId: optional(environment, "YANDEX_CLIENT_ID"),
    cloudPaymentsPublicId: optional(environment, "CLOUDPAYMENTS_PUBLIC_ID"),
    cloudPaymentsApiSecret:
      optional(environment, "CLOUDPAYMENTS_API_SECRET") ?? generatedSecret("cloudpayments-api-secret"),
    cloudPaymentsApiUrl: optional(environment, "CLOUDPAYMENTS_API_URL"),
    recaptchaSiteKey: optional(environment, "RECAPTCHA_SITE_KEY"),
    recaptchaSecret: optional(environment, "RECAPTCHA_SECRET"),
    trustedProxies: parseTrustedProxies(optional(environment, "TRUSTED_PROXIES")),
    altchaMaxNumber: parseAltchaMaxNumber(optional(environment, "ALTCHA_MAX_NUMBER")),
    receipts: {
      taxationSystem: parseTaxationSystem(optional(environment, "TAXATION_SYSTEM")),
      vat: parseVat(optional(environment, "RECEIPT_VAT")),
    },
    staticDirectory: optional(environment, "STATIC_DIR") ?? "dist",
  };
  assertProductionIsReal(config, environment);
  return config;
}

/** Production must not silently fall back to the demo identity provider or the sandbox bank. */
function assertProductionIsReal(config: Config, environment: Environment): void {
  if (config.mode !== "production") return;
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
    ["CLOUDPAYMENTS_API_URL", config.cloudPaymentsApiUrl],
  ] as const) {
    if (value !== undefined && !isHttpsUrl(value))
      throw new Error(`APP_MODE=production needs ${name} to be an https:// URL, got "${value}".`);
  }
}

const minimumSecretBytes = 32;
const minimumSecretSymbols = 8;

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
