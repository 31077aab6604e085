import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { treaty } from "@elysiajs/eden";
import type { Subprocess } from "bun";
import { afterAll, expect, test } from "vitest";
import type { App } from "../../../bff/app";
import { dataOf, identityOf, sessionOf } from "../../helpers/api";
import { startProcess } from "../../helpers/start-process";
import { testDatabaseUrl } from "../../helpers/test-database";

/**
 * DESIGN §15 with real processes: a demo instance whose bank is another instance's
 * sandbox (CLOUDPAYMENTS_API_URL) takes first payments too. The order is registered at
 * that sandbox, the pages load its widget, and its notifications, answered by the
 * instance that embeds it, write the one database both instances read.
 */
async function startInstance(databaseUrl: string, bankApiUrl?: string) {
  const directory = mkdtempSync(join(tmpdir(), "kannt-shared-bank-"));
  // One page, so the instance serves a Content-Security-Policy to read.
  const site = join(directory, "site");
  mkdirSync(join(site, "en"), { recursive: true });
  writeFileSync(join(site, "en", "index.html"), "<!doctype html><title>Kannt</title>");
  const { child, port } = await startProcess("tests/helpers/server-process.ts", {
    APP_MODE: "demo",
    DATABASE_URL: databaseUrl,
    DATABASE_PATH: join(directory, "app.db"),
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: site,
    ...(bankApiUrl ? { CLOUDPAYMENTS_API_URL: bankApiUrl } : {}),
  });
  running.push(child);
  return `http://127.0.0.1:${port}`;
}

const running: Subprocess[] = [];
afterAll(() => {
  for (const child of running) child.kill(9);
});

/** The typed client of the instance at `origin`, over HTTP. */
const apiAt = (origin: string) => treaty<App>(origin, { parseDate: false }).api;

/** A customer signed in on `origin` through the demo provider, with the session cookie. */
async function signIn(origin: string, email: string) {
  const api = apiAt(origin);
  const token = await dataOf(api.dev.idp.token.post({ email }));
  const register = await api.register.post({
    ...token,
    email,
    providerId: "google.com",
    period: 1,
    tariff: 1,
  });
  expect(register.status).toBe(200);
  const cookie = register.response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  return { email, uid: token.uid, cookie };
}

const sandboxApi = "/api/dev/sandbox/cloudpayments";

test("a first payment ordered on an instance that shares another's sandbox bank is paid there and shows on both", async () => {
  const databaseUrl = await testDatabaseUrl();
  if (!databaseUrl) throw new Error("needs PostgreSQL");
  const bank = await startInstance(databaseUrl);
  const other = await startInstance(databaseUrl, `${bank}${sandboxApi}`);

  // The other instance's pages load the bank's widget, and may load it and call it.
  const settings = await dataOf(apiAt(other).payments.settings.get());
  expect(settings.widgetScriptUrl).toBe(`${bank}${sandboxApi}/widget.js`);
  const script = await fetch(settings.widgetScriptUrl);
  expect(script.status).toBe(200);
  expect(await script.text()).toContain("cp = { CloudPayments");
  const policy = new Map(
    ((await fetch(`${other}/en/`)).headers.get("content-security-policy") ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = "", ...sources]) => [name, sources]),
  );
  expect(policy.get("script-src")).toContain(bank);
  expect(policy.get("connect-src")).toContain(bank);
  expect(policy.get("script-src")?.join(" ")).not.toContain("cloudpayments.ru");
  const preflight = await fetch(`${bank}/api/dev/sandbox/pay`, {
    method: "OPTIONS",
    headers: {
      origin: other,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-origin")).toBe("*");

  // Signed in and ordering on the other instance; the bank knows the order at once.
  const customer = await signIn(other, "shared-bank@example.com");
  const order = await dataOf(
    apiAt(other).shop.order.post({ ...identityOf(customer), tariff: 1, period: 1 }, sessionOf(customer)),
  );

  // Paid as the widget pays, at the bank, from the other instance's page.
  const paid = await apiAt(bank).dev.sandbox.pay.post(
    { invoiceId: order.invoiceId, cardNumber: "4242 4242 4242 4242", amount: order.amount },
    { headers: { origin: other } },
  );
  expect(paid.response.headers.get("access-control-allow-origin")).toBe("*");
  expect(paid.data).toMatchObject({ success: true });

  // The bank's instance settled it in the shared database; the other reads it there.
  const profile = await dataOf(apiAt(other).profile.post(identityOf(customer), sessionOf(customer)));
  expect(profile.userInfo).toMatchObject({ subscriptionStatus: "ACTIVE", subscriptionIsActive: true });
}, 300_000);

test("an order whose sandbox bank cannot be reached is refused with 503, not opened for nothing", async () => {
  const databaseUrl = await testDatabaseUrl();
  if (!databaseUrl) throw new Error("needs PostgreSQL");
  // Nothing listens on port 9 (discard) of the loopback.
  const stranded = await startInstance(databaseUrl, `http://127.0.0.1:9${sandboxApi}`);
  const customer = await signIn(stranded, "no-bank@example.com");
  const ordered = await apiAt(stranded).shop.order.post(
    { ...identityOf(customer), tariff: 1, period: 1 },
    { headers: { cookie: customer.cookie, "accept-language": "en" } },
  );
  expect(ordered.status).toBe(503);
  expect(ordered.error?.value).toMatchObject({
    success: false,
    error: {
      code: "payment_service_unreachable",
      message: "The payment service is unreachable right now. Please try again in a minute.",
    },
  });
}, 300_000);
