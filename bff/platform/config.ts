import { readOrCreateSecret } from "./secrets";

export type AppMode = "demo" | "production";

export type Config = {
  port: number;
  databasePath: string;
  dataDirectory: string;
  publicUrl: string | undefined;
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
  staticDirectory: string;
};

type Environment = Record<string, string | undefined>;

function optional(environment: Environment, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value ? value : undefined;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got "${raw}".`);
  }
  return port;
}

function parseMode(raw: string | undefined): AppMode {
  if (raw === undefined || raw === "demo") return "demo";
  if (raw === "production") return "production";
  throw new Error(`APP_MODE must be "demo" or "production", got "${raw}".`);
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
  const mode = parseMode(optional(environment, "APP_MODE"));
  const config: Config = {
    port: parsePort(optional(environment, "PORT")),
    databasePath,
    dataDirectory,
    publicUrl: optional(environment, "PUBLIC_URL")?.replace(/\/+$/, ""),
    mode,
    adminUsername: optional(environment, "ADMIN_USERNAME"),
    adminPassword: optional(environment, "ADMIN_PASSWORD"),
    jwtSecret: optional(environment, "JWT_SECRET") ?? readOrCreateSecret(dataDirectory, "jwt-secret"),
    googleClientId: optional(environment, "GOOGLE_CLIENT_ID"),
    yandexClientId: optional(environment, "YANDEX_CLIENT_ID"),
    cloudPaymentsPublicId: optional(environment, "CLOUDPAYMENTS_PUBLIC_ID"),
    cloudPaymentsApiSecret:
      optional(environment, "CLOUDPAYMENTS_API_SECRET") ??
      readOrCreateSecret(dataDirectory, "cloudpayments-api-secret"),
    cloudPaymentsApiUrl: optional(environment, "CLOUDPAYMENTS_API_URL"),
    recaptchaSiteKey: optional(environment, "RECAPTCHA_SITE_KEY"),
    recaptchaSecret: optional(environment, "RECAPTCHA_SECRET"),
    staticDirectory: optional(environment, "STATIC_DIR") ?? "dist",
  };
  assertProductionIsReal(config, environment);
  return config;
}

/** Production must not silently fall back to the demo identity provider or the sandbox bank. */
function assertProductionIsReal(config: Config, environment: Environment): void {
  if (config.mode !== "production") return;
  const missing = [
    ["PUBLIC_URL", config.publicUrl],
    ["JWT_SECRET", optional(environment, "JWT_SECRET")],
    ["GOOGLE_CLIENT_ID", config.googleClientId],
    ["YANDEX_CLIENT_ID", config.yandexClientId],
    ["CLOUDPAYMENTS_PUBLIC_ID", config.cloudPaymentsPublicId],
    ["CLOUDPAYMENTS_API_SECRET", optional(environment, "CLOUDPAYMENTS_API_SECRET")],
    ["CLOUDPAYMENTS_API_URL", config.cloudPaymentsApiUrl],
  ]
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new Error(
      `APP_MODE=production refuses the demo parts; set ${missing.join(", ")} (see .env.example).`,
    );
  }
}
