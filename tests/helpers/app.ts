import { createApp } from "../../bff/app";
import { OffsetClock } from "../../bff/platform/clock";
import { loadConfig } from "../../bff/platform/config";
import { type ContextOverrides, createContext } from "../../bff/platform/context";
import { openDatabase } from "../../bff/platform/database";

/** A fresh app on its own in-memory database, with fixed secrets and a test clock. */
export async function makeTestApp(
  environment: Record<string, string> = {},
  overrides: ContextOverrides = {},
) {
  const config = loadConfig({
    DATABASE_PATH: ":memory:",
    JWT_SECRET: "test-jwt-secret-that-is-long-enough-000000",
    CLOUDPAYMENTS_API_SECRET: "test-cloudpayments-secret-long-enough-0000",
    // A light proof of work keeps tests that sign in dozens of times quick; the default
    // cost is checked by the configuration test and measured in the browser.
    ALTCHA_MAX_NUMBER: "5000",
    ...environment,
  });
  const clock = new OffsetClock();
  const context = await createContext(config, openDatabase(":memory:"), clock, overrides);
  return { context, clock, app: createApp(context) };
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
