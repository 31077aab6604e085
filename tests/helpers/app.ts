import { onTestFinished } from "vitest";
import { createApp, createContext } from "../../bff/app";
import type { ContextOverrides } from "../../bff/context";
import { loadConfig } from "../../bff/platform/config";
import { openDatabase } from "../../bff/platform/database";
import { makeTestClock, shareTestClock } from "./test-clock";
import { testDatabaseUrl } from "./test-database";

/**
 * A fresh app on its own database, with fixed secrets and a test clock: an in-memory
 * SQLite database, or a fresh PostgreSQL database when the run is on PostgreSQL.
 */
export async function makeTestApp(
  environment: Record<string, string> = {},
  overrides: ContextOverrides = {},
) {
  const databaseUrl = await testDatabaseUrl();
  const config = loadConfig({
    DATABASE_PATH: ":memory:",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    JWT_SECRET: "test-jwt-secret-that-is-long-enough-000000",
    CLOUDPAYMENTS_API_SECRET: "test-cloudpayments-secret-long-enough-0000",
    YOOKASSA_SHOP_ID: "512345",
    YOOKASSA_SECRET_KEY: "test_yookassa-secret-key-long-enough-00000",
    // A light proof of work keeps tests that sign in dozens of times quick; the default
    // cost is checked by the configuration test and measured in the browser.
    ALTCHA_MAX_NUMBER: "5000",
    ...environment,
  });
  const database = await openDatabase({ databaseUrl, databasePath: ":memory:" });
  if (database.engine === "postgres") closeAfterTest(database);
  const clock = makeTestClock();
  await shareTestClock(database, clock);
  const context = await createContext(config, database, clock, overrides);
  const app = createApp(context);
  publicUrls.set(app, config.publicUrl);
  return { context, clock, app };
}

const publicUrls = new WeakMap<object, string>();
export const rememberPublicUrl = (app: object, publicUrl: string) => publicUrls.set(app, publicUrl);
/** The PUBLIC_URL a test app was made with: a test passkey's origin. */
export const publicUrlOf = (app: object) => publicUrls.get(app) ?? "http://localhost:3000";

/**
 * What a test app needs to start in production mode: real providers and gateway, an https
 * public URL, and loopback addresses on a closed port for the gateway and SMTP.
 */
export const productionSettings = {
  APP_MODE: "production",
  PUBLIC_URL: "https://kannt.example",
  GOOGLE_CLIENT_ID: "1234-kannt.apps.googleusercontent.com",
  YANDEX_CLIENT_ID: "kannt-yandex-client",
  CLOUDPAYMENTS_PUBLIC_ID: "pk_live_kannt",
  CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
  SMTP_URL: "smtps://user:password@127.0.0.1:9",
};

/**
 * A PostgreSQL database holds a pool of connections until it is closed; a run makes one
 * per test, so each is closed when its test ends or the cluster runs out of connections.
 * An app made outside a test (for a whole file, or in `beforeAll`) lives as long as the
 * file's tests and is left to the pool's idle timeout.
 */
function closeAfterTest(database: { close(): Promise<void> }) {
  try {
    onTestFinished(() => database.close());
  } catch {
    // Made outside a test: nothing to tie its end to.
  }
}

export function request(path: string, init: RequestInit = {}): Request {
  return new Request(`http://localhost${path}`, init);
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
