import { Database } from "bun:sqlite";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { signBody } from "../../../bff/adapters/cloudpayments/signature";
import { errorHandler } from "../../../bff/platform/error-handler";
import { redact } from "../../../bff/platform/logger";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { request } from "../../helpers/app";
import { type RunningServer, startCapturedServer } from "../../helpers/captured-process";
import { demoToken, registerBody, type SignedIn, sessionCookieFrom } from "../../helpers/customers";
import { finishSignIn, solveCaptcha } from "../../helpers/operators";
import { cards, order, passDays, payWithCard, runBilling } from "../../helpers/payments";
import { remoteApp } from "../../helpers/remote-app";
import { freePort, smtpPassword, smtpUser, startSmtpServer } from "../../helpers/smtp-server";

// DESIGN §12: "Logs never hold card tokens, session or refresh tokens, passwords or captcha
// solutions." A real server process runs at the most verbose level through a full run of
// the product (sign-ins, payments, a decline, renewals, forged notifications, staff logins,
// token rotation, a refund, a prepaid purchase, an unhandled error) with its stdout and
// stderr captured; then every secret value seen during the run is looked for in that output.

const root = mkdtempSync(join(tmpdir(), "kannt-log-secrets-"));
const dataFolder = join(root, "data");
const operator = { username: "log-admin", password: `Staff-${randomUUID()}` };
// A mail server on a closed loopback port: any message the run queues fails to send and
// is logged as retried, with the URL's password nowhere in those lines.

/** Every secret value met during the run, by what it is; each is looked for in the log. */
const secrets = new Map<string, string>();
function keep(label: string, value: string | undefined | null): void {
  // Short values could turn up in the log by chance and make the test flaky, not stricter.
  if (!value || value.length < 12)
    throw new Error(`${label} is missing or too short to look for: "${value}"`);
  secrets.set(label, value);
}

let server: RunningServer;
let log = "";

/**
 * A minimal built site; a script file is removed after start, so serving it fails inside
 * the server (pages are read at start for their CSP, other files on first request).
 */
function fakeBuiltSite(): string {
  const site = join(root, "site");
  mkdirSync(join(site, "en"), { recursive: true });
  writeFileSync(join(site, "en", "index.html"), "<!doctype html><title>en</title>");
  writeFileSync(join(site, "app.js"), "console.log('app');");
  return site;
}

async function expectStatus(response: Response, status: number, step: string): Promise<Response> {
  if (response.status !== status)
    throw new Error(`${step}: expected ${status}, got ${response.status} ${await response.text()}`);
  return response;
}

/** The whole run, over HTTP against the process, keeping each secret it meets. */
async function fullRun(origin: string): Promise<void> {
  const app = remoteApp(origin);
  const api = apiOf(app);

  async function signIn(email: string, extra: { prepaidToken?: string } = {}): Promise<SignedIn> {
    const token = await demoToken(app, email);
    keep(`demo identity credential of ${email}`, token.credential);
    const registered = api.register.post({ ...registerBody(token, { period: 1 }), ...extra });
    // Any answer but a 2xx fails the run here, with its status and body.
    await dataOf(registered);
    const cookie = sessionCookieFrom((await registered).response);
    keep(`session cookie of ${email}`, cookie.slice(cookie.indexOf("=") + 1));
    return { uid: token.uid, email: token.email, providerId: token.providerId, cookie };
  }

  async function paidCustomer(email: string, card: string, isPaid: boolean) {
    const customer = await signIn(email);
    const options = await order(app, customer, 1, 1);
    expect((await payWithCard(app, options.invoiceId, card)).success).toBe(isPaid);
    return { customer, options };
  }

  // Customers: one paying with the succeeding card, one declined, one whose card is later hard-declined.
  const payer = await paidCustomer("log-payer@example.com", cards.success, true);
  await paidCustomer("log-declined@example.com", cards.declined, false);
  await paidCustomer("log-expiring@example.com", cards.expiredLater, true);

  // A pass queues the pre-charge notices, which the server's own mail worker may be the one
  // sending: the clock moves on only once none is pending, however long a busy machine
  // takes, since a notice that goes out after the move moves its charge (DESIGN §13(a)).
  await runBilling(app);
  const isNoticePending = async () =>
    (await dataOf(api.dev.mail.get())).some(
      (mail) => mail.kind === "renewal_notice" && mail.status === "pending",
    );
  while (await isNoticePending()) await Bun.sleep(50);
  // Past the one-day trial: renewals charge the saved card tokens; the hard decline ends a subscription.
  const pass = await passDays(app, 1.5);
  expect(pass.charged).toBeGreaterThanOrEqual(1);

  // Notifications signed with the sandbox's API secret that the server refuses to apply.
  const apiSecret = readFileSync(join(dataFolder, "cloudpayments-api-secret.secret"), "utf8").trim();
  keep("CloudPayments API secret", apiSecret);
  const forgedCardToken = `tk_forged_${randomUUID()}`;
  keep("card token in a refused notification", forgedCardToken);
  async function notify(kind: string, fields: Record<string, string>) {
    const body = new URLSearchParams(fields).toString();
    const signature = signBody(apiSecret, body);
    keep(`notification signature ${signature.slice(0, 8)}`, signature);
    const response = await app.handle(
      request(`/api/payments/cloudpayments/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-hmac": signature },
        body,
      }),
    );
    return expectStatus(response, 200, `${kind} notification`);
  }
  const notification = {
    Currency: "RUB",
    AccountId: payer.options.accountId,
    Token: forgedCardToken,
    CardLastFour: "4242",
    Status: "Completed",
  };
  await notify("pay", {
    ...notification,
    TransactionId: "8800001",
    InvoiceId: payer.options.invoiceId,
    Amount: "999.00",
  });
  await notify("pay", {
    ...notification,
    TransactionId: "8800002",
    InvoiceId: `no-such-invoice-${randomUUID()}`,
    Amount: "1.00",
  });
  await notify("refund", {
    ...notification,
    TransactionId: "8800003",
    PaymentTransactionId: "8899999",
    InvoiceId: `no-such-invoice-${randomUUID()}`,
    Amount: "1.00",
  });

  // Staff: a wrong password, the right one, a rotation, a refund, logout, and reuse of a rotated token.
  async function staffLogin(password: string) {
    const captcha = await solveCaptcha(app);
    keep(`captcha solution ${secrets.size}`, captcha);
    // Over real HTTP the server sees the socket's own address: the typed client can log in.
    return api.auth.login.post({ username: operator.username, password, captcha });
  }
  const wrongPassword = `${operator.password}-typo`;
  keep("wrong operator password", wrongPassword);
  expect((await staffLogin(wrongPassword)).status, "login with a wrong password").toBe(401);
  // The server's PUBLIC_URL is the demo default for its port: the passkey's origin.
  const publicUrl = `http://localhost:${new URL(origin).port}`;
  const first = await finishSignIn(
    api,
    publicUrl,
    operator.username,
    await dataOf(staffLogin(operator.password)),
  );
  keep("first access token", first.accessToken);
  keep("first refresh token", first.refreshToken);
  const rotated = await dataOf(api.auth.refreshToken.post({ refreshToken: first.refreshToken }));
  keep("rotated access token", rotated.accessToken);
  keep("rotated refresh token", rotated.refreshToken);
  const asStaff = staffOf(rotated.accessToken);
  const refund = api.panel.refund.post({ email: payer.customer.email, uid: payer.customer.uid }, asStaff);
  expect(await dataOf(refund)).toMatchObject({ Success: true });
  const loggedOut = await api.auth.logout.post({ refreshToken: rotated.refreshToken }, asStaff);
  expect(loggedOut.status, "logout").toBe(200);
  const reuse = await api.auth.refreshToken.post({ refreshToken: first.refreshToken });
  expect(reuse.status, "reuse of a rotated refresh token").toBe(401);

  // An anonymous prepaid purchase, bound to an account at sign-up.
  const prepaidToken = `prepaid-${randomUUID()}`;
  keep("prepaid token", prepaidToken);
  const prepaid = await dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: 1 }));
  expect((await payWithCard(app, prepaid.invoiceId, cards.success)).success).toBe(true);
  await signIn("log-prepaid@example.com", { prepaidToken });

  // An unhandled error: a file of the built site removed while the server runs fails to be
  // read. The request carries secrets in its query, cookie and authorization header.
  rmSync(join(root, "site", "app.js"));
  const failed = await fetch(`${origin}/app.js?token=${encodeURIComponent(rotated.refreshToken)}`, {
    headers: {
      "accept-encoding": "gzip",
      cookie: payer.customer.cookie,
      authorization: `Bearer ${rotated.accessToken}`,
    },
  });
  await expectStatus(failed, 500, "a file removed while the server runs");
}

/** Card tokens as the bank and our database hold them, read once the server has stopped. */
function storedCardTokens(): string[] {
  const ledger = new Database(join(dataFolder, "sandbox-gateway.db"));
  const app = new Database(join(dataFolder, "app.db"));
  try {
    return [
      ...ledger.query<{ token: string }, []>("SELECT token FROM transactions WHERE token IS NOT NULL").all(),
      ...ledger.query<{ token: string }, []>("SELECT token FROM cards").all(),
      ...app
        .query<{ token: string }, []>("SELECT card_token AS token FROM payments WHERE card_token IS NOT NULL")
        .all(),
      ...app
        .query<{ token: string }, []>(
          "SELECT card_token AS token FROM subscriptions WHERE card_token IS NOT NULL",
        )
        .all(),
    ].map((row) => row.token);
  } finally {
    ledger.close();
    app.close();
  }
}

beforeAll(async () => {
  // A real mail server: renewals are charged only after their notice went out (DESIGN §13(a)).
  const smtp = await startSmtpServer(await freePort());
  server = await startCapturedServer({
    DATABASE_PATH: join(dataFolder, "app.db"),
    STATIC_DIR: fakeBuiltSite(),
    LOG_LEVEL: "debug",
    BILLING_INTERVAL_SECONDS: "0",
    ADMIN_USERNAME: operator.username,
    ADMIN_PASSWORD: operator.password,
    ALTCHA_MAX_NUMBER: "5000",
    SMTP_URL: `smtp://${smtpUser}:${smtpPassword}@127.0.0.1:${smtp.port}`,
  });
  keep("operator password", operator.password);
  keep("SMTP password", smtpPassword);
  try {
    await fullRun(server.origin);
  } finally {
    await server.stop();
    await smtp.stop();
  }
  log = `${server.stdout()}\n${server.stderr()}`;
  for (const [index, token] of [...new Set(storedCardTokens())].entries()) keep(`card token ${index}`, token);
  keep("JWT secret", readFileSync(join(dataFolder, "jwt-secret.secret"), "utf8").trim());
  const demoKey = JSON.parse(readFileSync(join(dataFolder, "demo-idp-key.jwk.json"), "utf8")) as {
    d: string;
  };
  keep("demo identity provider's private key", demoKey.d);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

type LogLine = { level: string; message: string };

describe("the log of a full run", () => {
  test("is not empty: it holds the info, warn and error lines the run caused", () => {
    const lines = log
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine)
      .map(({ level, message }) => `${level}: ${message}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        "info: listening",
        "info: subscription expired after declined renewal",
        "error: notification does not match its order; not applied",
        "error: notification for an unknown invoice",
        "warn: refund notification before its payment; asking for redelivery",
        "error: request failed",
      ]),
    );
  });

  test("the run met every kind of secret the rule names", () => {
    const labels = [...secrets.keys()].join("\n");
    for (const kind of [
      /card token \d/,
      /session cookie/,
      /refresh token/,
      /access token/,
      /operator password/,
      /captcha solution/,
      /prepaid token/,
      /demo identity credential/,
      /API secret/,
      /JWT secret/,
      /SMTP password/,
    ])
      expect(labels).toMatch(kind);
    // Renewals, the refund and the prepaid purchase each used a saved card.
    expect([...secrets.keys()].filter((label) => /^card token \d/.test(label)).length).toBeGreaterThanOrEqual(
      3,
    );
  });

  test("holds no card token, session or refresh token, password, captcha solution or secret", () => {
    const found = [...secrets].filter(([, value]) => log.includes(value)).map(([label]) => label);
    expect(found).toEqual([]);
  });
});

describe("redact, the logger's filter", () => {
  test("blanks sensitive fields by name at any depth, in objects and arrays, and keeps the rest", () => {
    const fields = {
      invoiceId: "first-abc",
      Token: "tk_card",
      nested: { refreshToken: "refresh", user: { password: "hunter2", email: "a@b.c" } },
      list: [{ captcha: "solution" }, { cardToken: "tk_2" }, "plain"],
      headers: { cookie: "kannt_session=abc", authorization: "Bearer x", "content-hmac": "sig" },
      prepaidToken: "prepaid",
      credential: "jwt",
      apiSecret: "s",
      session: "session-token",
      device: { accessKey: "device-key", "x-node-key": "node-key" },
    };
    expect(redact(fields)).toEqual({
      invoiceId: "first-abc",
      Token: "[redacted]",
      nested: { refreshToken: "[redacted]", user: { password: "[redacted]", email: "a@b.c" } },
      list: [{ captcha: "[redacted]" }, { cardToken: "[redacted]" }, "plain"],
      headers: { cookie: "[redacted]", authorization: "[redacted]", "content-hmac": "[redacted]" },
      prepaidToken: "[redacted]",
      credential: "[redacted]",
      apiSecret: "[redacted]",
      session: "[redacted]",
      device: { accessKey: "[redacted]", "x-node-key": "[redacted]" },
    });
  });

  test("blanks sensitive query values in URLs, however the name is spelt, and keeps the path", () => {
    expect(redact({ url: "https://kannt.app/cancel?token=abc&lang=ru" })).toEqual({
      url: "https://kannt.app/cancel?token=[redacted]&lang=ru",
    });
    expect(redact("/api/x?page=1&Password=p&%74oken=t&kannt_session=s")).toBe(
      "/api/x?page=1&Password=[redacted]&%74oken=[redacted]&kannt_session=[redacted]",
    );
    expect(redact(["https://kannt.app/yauth#access_token=y&state=1"])).toEqual([
      "https://kannt.app/yauth#access_token=[redacted]&state=1",
    ]);
    expect(redact("https://kannt.app/?token=")).toBe("https://kannt.app/?token=");
    // A sensitive word in the path is no reason to blank the query.
    expect(redact("/api/auth/refreshToken?page=2")).toBe("/api/auth/refreshToken?page=2");
  });

  test("blanks the token of a subscription URL, a bearer secret, and keeps the rest of the URL", () => {
    expect(redact({ url: "https://kannt.app/sub/Zx9_token-of-a-device?flag=1" })).toEqual({
      url: "https://kannt.app/sub/[redacted]?flag=1",
    });
    expect(redact("GET /sub/Zx9_token-of-a-device failed")).toBe("GET /sub/[redacted] failed");
    expect(redact("/api/profile/devices/connect")).toBe("/api/profile/devices/connect");
  });

  test("an unhandled error on a subscription URL is logged without the URL's token", async () => {
    const token = `sub-${randomUUID()}`;
    const app = new Elysia().use(errorHandler).get("/sub/:token", () => {
      throw new Error("the subscription answer failed");
    });
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, "error")
      .mockImplementation((line: unknown) => void lines.push(String(line)));
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "error";
    try {
      expect((await app.handle(new Request(`http://localhost/sub/${token}`))).status).toBe(500);
    } finally {
      process.env.LOG_LEVEL = level;
      if (level === undefined) delete process.env.LOG_LEVEL;
      spy.mockRestore();
    }
    const logged = lines.join("\n");
    expect(logged).toContain("unhandled error");
    expect(logged).toContain("/sub/[redacted]");
    expect(logged).not.toContain(token);
  });

  test("a password in a URL's user part (SMTP_URL) is blanked wherever the URL appears; the user and host stay", () => {
    expect(redact({ smtp: "smtps://kannt:s3cret-pass@mail.example:465" })).toEqual({
      smtp: "smtps://kannt:[redacted]@mail.example:465",
    });
    expect(redact("connect failed for smtp://user%40kannt.example:p%2Fw@127.0.0.1:2525/?pool=true")).toBe(
      "connect failed for smtp://user%40kannt.example:[redacted]@127.0.0.1:2525/?pool=true",
    );
    // An address is no URL with a password: left as it is.
    expect(redact("mail to anna@example.com failed: 550")).toBe("mail to anna@example.com failed: 550");
  });

  test("a cookie header text in a field of another name is blanked too", () => {
    expect(redact({ header: "lang=en; kannt_session=abc.def" })).toEqual({
      header: "lang=en; kannt_session=[redacted]",
    });
  });

  test("an object nested deeper than the filter walks is dropped, never logged as is", () => {
    let deep: Record<string, unknown> = { password: "too-deep-to-check" };
    for (let level = 0; level < 12; level++) deep = { level: deep };
    expect(JSON.stringify(redact(deep))).not.toContain("too-deep-to-check");
  });
});
