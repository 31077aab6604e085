import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSqlite } from "../../../bff/platform/database";
import { createMetrics } from "../../../bff/platform/metrics";
import { signIn } from "../../helpers/customers";
import { startLoopbackServer } from "../../helpers/loopback-server";
import { advanceDays, cards, order, payWithCard, runBilling } from "../../helpers/payments";
import { remoteApp } from "../../helpers/remote-app";

/** DESIGN §16: GET /metrics, its names and labels, and who may read it. */
const metricsToken = "a-metrics-token-long-enough-0123456789";
let started: Awaited<ReturnType<typeof startLoopbackServer>>;
let origin: string;

beforeAll(async () => {
  started = await startLoopbackServer("metrics", { METRICS_TOKEN: metricsToken });
  origin = `http://127.0.0.1:${started.server.port}`;
});
afterAll(() => started.shutdown());

/** The samples of the current metrics text, as `name{labels} value` lines. */
async function samples(headers: Record<string, string> = {}): Promise<string[]> {
  const response = await fetch(`${origin}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return (await response.text()).split("\n").filter((line) => line && !line.startsWith("#"));
}

const sampleValue = (lines: string[], prefix: string) =>
  Number(
    lines
      .find((line) => line.startsWith(prefix))
      ?.split(" ")
      .at(-1) ?? Number.NaN,
  );

describe("GET /metrics", () => {
  test("lists every metric of DESIGN §16, with help and type", async () => {
    const text = await (await fetch(`${origin}/metrics`)).text();
    for (const [name, type] of [
      ["http_request_duration_seconds", "histogram"],
      ["kannt_renewals_total", "counter"],
      ["kannt_notifications_total", "counter"],
      ["kannt_mails_total", "counter"],
      ["kannt_outbox_depth", "gauge"],
      ["kannt_scheduler_lag_seconds", "gauge"],
    ]) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toContain(`# TYPE ${name} ${type}`);
    }
    // Process metrics come along, once per server.
    expect(text).toContain("process_cpu_seconds_total");
  });

  // Runs before anything below sends mail, charges or notifies: the server is as fresh as after a restart.
  test("a fresh server exports every renewal, mail and notification outcome at 0, so alerts on them can fire", async () => {
    const lines = await samples();
    for (const result of ["completed", "declined", "pending", "free", "unanswered", "recovered"])
      expect(sampleValue(lines, `kannt_renewals_total{result="${result}"}`), result).toBe(0);
    for (const result of ["sent", "failed", "retried"])
      expect(sampleValue(lines, `kannt_mails_total{result="${result}"}`), result).toBe(0);
    for (const kind of ["check", "pay", "fail", "refund"])
      for (const result of ["accepted", "refused"])
        expect(sampleValue(lines, `kannt_notifications_total{kind="${kind}",result="${result}"}`)).toBe(0);
  });

  test("requests are labelled by method, route pattern and status, never by concrete path", async () => {
    await fetch(`${origin}/api/profile/payments/12345/receipt`);
    await fetch(`${origin}/api/profile`, { method: "POST" });
    await fetch(`${origin}/api/no/such/call-${Date.now()}`);
    await fetch(`${origin}/api/health`, { method: "HEAD" });
    const lines = await samples();
    const count = (labels: string) => sampleValue(lines, `http_request_duration_seconds_count{${labels}}`);
    expect(count('method="GET",route="/api/profile/payments/:id/receipt",status="401"')).toBe(1);
    expect(count('method="POST",route="/api/profile",status="400"')).toBe(1);
    expect(count('method="GET",route="unmatched",status="404"')).toBe(1);
    expect(count('method="HEAD",route="/api/health",status="200"')).toBe(1);
    expect(lines.some((line) => line.includes("12345") || line.includes("call-"))).toBe(false);
  });

  test("payments, renewals, mail and the outbox are counted as they happen", async () => {
    const app = remoteApp(origin);
    const customer = await signIn(app, "metrics.customer@example.com");
    const options = await order(app, customer, 1, 1);
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
    await runBilling(app); // the pre-charge notice, 24 hours ahead
    await advanceDays(app, 1.5);
    const pass = await runBilling(app);
    expect(pass.completed).toBe(1);

    const lines = await samples();
    expect(sampleValue(lines, 'kannt_notifications_total{kind="check",result="accepted"}')).toBe(1);
    expect(sampleValue(lines, 'kannt_notifications_total{kind="pay",result="accepted"}')).toBe(2);
    expect(sampleValue(lines, 'kannt_renewals_total{result="completed"}')).toBe(1);
    expect(sampleValue(lines, 'kannt_mails_total{result="sent"}')).toBeGreaterThanOrEqual(2);
    expect(sampleValue(lines, "kannt_outbox_depth")).toBe(0);
    expect(sampleValue(lines, "kannt_scheduler_lag_seconds")).toBe(0);
  }, 300_000);

  test("a forged signature counts as a refused notification", async () => {
    const refused = await fetch(`${origin}/api/payments/cloudpayments/pay`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-hmac": "forged" },
      body: "TransactionId=1&Amount=1",
    });
    expect(refused.status).toBe(401);
    const lines = await samples();
    expect(sampleValue(lines, 'kannt_notifications_total{kind="pay",result="refused"}')).toBe(1);
  });

  test("a request a proxy forwarded is refused without the token, whatever its peer", async () => {
    const forwarded = await fetch(`${origin}/metrics`, { headers: { "x-forwarded-for": "203.0.113.5" } });
    expect(forwarded.status).toBe(403);
    const wrongToken = await fetch(`${origin}/metrics`, {
      headers: { "x-forwarded-for": "203.0.113.5", authorization: `Bearer ${metricsToken.slice(1)}x` },
    });
    expect(wrongToken.status).toBe(403);
    await samples({ "x-forwarded-for": "203.0.113.5", authorization: `Bearer ${metricsToken}` });
    expect((await fetch(`${origin}/metrics`, { method: "POST" })).status).toBe(405);
  });

  test.each([
    ["X-Real-IP", { "x-real-ip": "203.0.113.5" }],
    ["Forwarded", { forwarded: "for=203.0.113.5;proto=https" }],
    ["X-Forwarded-Host", { "x-forwarded-host": "kannt.example" }],
    ["X-Forwarded-Proto", { "x-forwarded-proto": "https" }],
    ["X-Forwarded-Port", { "x-forwarded-port": "443" }],
    ["an X-Forwarded- header of any name", { "x-forwarded-client-cert": "by=spiffe://proxy" }],
  ])("a request carrying %s alone is proxied: 403 without the token, read with it", async (_, headers) => {
    expect((await fetch(`${origin}/metrics`, { headers })).status).toBe(403);
    await samples({ ...headers, authorization: `Bearer ${metricsToken}` });
  });
});

describe("the scheduler's lag", () => {
  test("is how much later than its interval the latest pass began", async () => {
    const metrics = createMetrics(openSqlite(":memory:"));
    metrics.schedulerPassStarted(Date.now() - 90_000, 60_000);
    const text = await metrics.registry.getSingleMetricAsString("kannt_scheduler_lag_seconds");
    const lag = Number(text.split("\n").at(-1)?.split(" ").at(-1));
    expect(lag).toBeGreaterThanOrEqual(30);
    expect(lag).toBeLessThan(31);
  });
});
