import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createContext } from "../../../bff/app";
import { OffsetClock } from "../../../bff/platform/clock";
import { configWith, loadConfig } from "../../../bff/platform/config";
import { prepareDataFolder } from "../../../bff/platform/data-folder";
import { openDatabase } from "../../../bff/platform/database";

// The configuration is read once, at start, into one frozen object (bff/platform/config.ts):
// a value a variable does not take stops the start, naming it; loading writes nothing, and
// the start's own step (prepareDataFolder) makes the data folder and the generated secrets.

const root = mkdtempSync(join(tmpdir(), "kannt-config-loading-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
/** A folder that does not exist yet. */
const freshFolder = () => join(root, `case-${++folders}`, "data");
const modeOf = (path: string) => statSync(path).mode & 0o777;

const load = (environment: Record<string, string>) =>
  loadConfig({ DATABASE_PATH: ":memory:", ...environment });

describe("loadConfig refuses a value its variable does not take, naming both and what it takes", () => {
  test.each([
    // Read as a number of seconds it was NaN, and NaN > 0 is false: renewals silently stopped.
    [
      "BILLING_INTERVAL_SECONDS",
      "1m",
      "a whole number of seconds from 0 to 86400 (0 turns the renewal scheduler off)",
    ],
    ["BILLING_INTERVAL_SECONDS", "-60", "a whole number of seconds from 0 to 86400"],
    ["BILLING_INTERVAL_SECONDS", "86401", "a whole number of seconds from 0 to 86400"],
    ["PORT", "abc", "a whole number from 0 to 65535"],
    ["PORT", "65536", "a whole number from 0 to 65535"],
    ["RENEWAL_BATCH_SIZE", "0", "a whole number from 1 to 5000"],
    ["RENEWAL_CONCURRENCY", "0", "a whole number from 1 to 256"],
    ["RENEWAL_CONCURRENCY", "257", "a whole number from 1 to 256"],
    ["LOG_RETENTION_DAYS", "-1", "a whole number of days from 1 to 3650"],
    ["IP_RETENTION_DAYS", "30d", "a whole number of days from 1 to 3650"],
    ["ALTCHA_MAX_NUMBER", "4e5", "a whole number from 1000 to 100000000"],
    ["NODE_LINK_GBPS", "0", "a whole number of gigabits per second from 1 to 1000"],
    ["NODE_LINK_GBPS", "2.5", "a whole number of gigabits per second from 1 to 1000"],
    ["NODE_LINK_GBPS", "10G", "a whole number of gigabits per second from 1 to 1000"],
    ["LOG_LEVEL", "verbose", '"debug", "info", "warn" or "error"'],
    ["SKIP_BUILD", "maybe", "1, true, yes or on, or 0, false, no or off"],
    ["APP_MODE", "staging", '"demo" or "production"'],
    ["SBP_PAYER_PHONE", "yes", '"off" (no phone with SBP QRs) or "required"'],
    ["TAXATION_SYSTEM", "7", "one of 0 (ОСН), 1 (УСН доходы)"],
    ["RECEIPT_VAT", "18", '"none" (без НДС) or one of 0, 5, 7'],
    ["SANDBOX_LATENCY_MS", "300ms", "a whole number of milliseconds from 0 to 60000"],
    ["SANDBOX_LATENCY_MS", "60001", "a whole number of milliseconds from 0 to 60000"],
    ["SANDBOX_LATENCY_MS", "0.5", "a whole number of milliseconds from 0 to 60000"],
    ["SANDBOX_JITTER_MS", "-1", "a whole number of milliseconds from 0 to 60000"],
    // Unset, the latency is 0, and no answer may be due before its call.
    ["SANDBOX_JITTER_MS", "50", "at most SANDBOX_LATENCY_MS (0 while it is unset)"],
  ])("%s=%s", (name, raw, accepts) => {
    expect(() => load({ [name]: raw })).toThrow(`${name} must be ${accepts}`);
    expect(() => load({ [name]: raw })).toThrow(`got "${raw}".`);
  });

  test("the defaults stay what they were, and 0 still turns the scheduler off", () => {
    expect(load({})).toMatchObject({
      port: 3000,
      billingIntervalSeconds: 60,
      renewalBatchSize: 500,
      renewalConcurrency: 32,
      logRetentionDays: 90,
      ipRetentionDays: 30,
      altchaMaxNumber: 400_000,
      logLevel: undefined,
      skipBuild: false,
      staticDirectory: "dist",
      sandboxLatencyMs: 0,
      sandboxJitterMs: 0,
      nodeLinkGbps: 10,
      sbpPayerPhone: "off",
    });
    expect(load({ SBP_PAYER_PHONE: "required" }).sbpPayerPhone).toBe("required");
    expect(load({ NODE_LINK_GBPS: "100" }).nodeLinkGbps).toBe(100);
    expect(load({ BILLING_INTERVAL_SECONDS: "0" }).billingIntervalSeconds).toBe(0);
    expect(load({ BILLING_INTERVAL_SECONDS: " 86400 " }).billingIntervalSeconds).toBe(86_400);
    expect(load({ BILLING_INTERVAL_SECONDS: "" }).billingIntervalSeconds).toBe(60);
    expect(load({ LOG_LEVEL: "debug", SKIP_BUILD: "1" })).toMatchObject({
      logLevel: "debug",
      skipBuild: true,
    });
  });
});

describe("SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS: how slowly the sandbox bank answers (demo only)", () => {
  /** Everything production needs, so that a refusal below is the sandbox settings' own. */
  const production = {
    APP_MODE: "production",
    PUBLIC_URL: "https://kannt.example",
    JWT_SECRET: "production-jwt-secret-0123456789abcdef0123456789",
    CLOUDPAYMENTS_API_SECRET: "production-cloudpayments-api-secret-0123456789",
    GOOGLE_CLIENT_ID: "1234-kannt.apps.googleusercontent.com",
    YANDEX_CLIENT_ID: "kannt-yandex-client",
    CLOUDPAYMENTS_PUBLIC_ID: "pk_live_kannt",
    CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
    SMTP_URL: "smtps://kannt:smtp-password-0123456789@127.0.0.1:9",
  };

  test("whole milliseconds up to a minute, the jitter up to the latency itself", () => {
    expect(load({ SANDBOX_LATENCY_MS: "300", SANDBOX_JITTER_MS: "50" })).toMatchObject({
      sandboxLatencyMs: 300,
      sandboxJitterMs: 50,
    });
    expect(load({ SANDBOX_LATENCY_MS: " 60000 ", SANDBOX_JITTER_MS: "60000" })).toMatchObject({
      sandboxLatencyMs: 60_000,
      sandboxJitterMs: 60_000,
    });
    expect(load({ SANDBOX_LATENCY_MS: "250", SANDBOX_JITTER_MS: "" })).toMatchObject({
      sandboxLatencyMs: 250,
      sandboxJitterMs: 0,
    });
  });

  test("a jitter over the latency is refused, naming both and the latency it got", () => {
    const loading = () => load({ SANDBOX_LATENCY_MS: "200", SANDBOX_JITTER_MS: "201" });
    expect(loading).toThrow('SANDBOX_JITTER_MS must be at most SANDBOX_LATENCY_MS (200), got "201".');
  });

  test.each([
    [{ SANDBOX_LATENCY_MS: "300" }, /APP_MODE=production.*unset SANDBOX_LATENCY_MS[,.]/],
    [{ SANDBOX_LATENCY_MS: "0" }, /APP_MODE=production.*unset SANDBOX_LATENCY_MS[,.]/],
    [
      { SANDBOX_LATENCY_MS: "300", SANDBOX_JITTER_MS: "50" },
      /APP_MODE=production.*unset SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS/,
    ],
    [
      { SANDBOX_NOTIFICATION_URL: "https://kannt.example/api/payments/cloudpayments" },
      /APP_MODE=production has no sandbox bank: unset SANDBOX_NOTIFICATION_URL, which only the demo's sandbox bank reads\./,
    ],
    [
      { SANDBOX_LATENCY_MS: "1", SANDBOX_JITTER_MS: "1", SANDBOX_NOTIFICATION_URL: "http://127.0.0.1:3001" },
      /unset SANDBOX_LATENCY_MS, SANDBOX_JITTER_MS and SANDBOX_NOTIFICATION_URL,/,
    ],
  ])("production refuses to start with %o, naming what to unset", (sandbox, message) => {
    expect(load(production).mode).toBe("production");
    expect(() => load({ ...production, ...sandbox })).toThrow(message);
    // Blank, as in a copied .env.example, is unset.
    expect(load({ ...production, SANDBOX_LATENCY_MS: "", SANDBOX_JITTER_MS: " " }).sandboxLatencyMs).toBe(0);
  });
});

describe("SANDBOX_NOTIFICATION_URL: where the sandbox bank posts its notifications (demo only)", () => {
  test("unset, the sandbox notifies its own instance; set, an http(s) URL without its trailing slash", () => {
    expect(load({}).sandboxNotificationUrl).toBeUndefined();
    expect(load({ SANDBOX_NOTIFICATION_URL: " " }).sandboxNotificationUrl).toBeUndefined();
    expect(
      load({ SANDBOX_NOTIFICATION_URL: "http://127.0.0.1:3001/api/payments/cloudpayments/" })
        .sandboxNotificationUrl,
    ).toBe("http://127.0.0.1:3001/api/payments/cloudpayments");
    expect(load({ SANDBOX_NOTIFICATION_URL: "https://shop.example/hooks" }).sandboxNotificationUrl).toBe(
      "https://shop.example/hooks",
    );
  });

  test.each(["127.0.0.1:3001/api", "ftp://shop.example/hooks", "http://shop.example/hooks?kind=", "hooks"])(
    "%s is refused, saying what it takes",
    (raw) => {
      expect(() => load({ SANDBOX_NOTIFICATION_URL: raw })).toThrow(
        `SANDBOX_NOTIFICATION_URL must be an http:// or https:// URL without a query`,
      );
      expect(() => load({ SANDBOX_NOTIFICATION_URL: raw })).toThrow(`got "${raw}".`);
    },
  );

  test("with CLOUDPAYMENTS_API_URL the instance has no sandbox to send them: refused, not ignored", () => {
    expect(() =>
      load({
        APP_MODE: "demo",
        CLOUDPAYMENTS_API_URL: "http://127.0.0.1:3001/api/dev/sandbox/cloudpayments",
        SANDBOX_NOTIFICATION_URL: "http://127.0.0.1:3002/api/payments/cloudpayments",
      }),
    ).toThrow(
      "SANDBOX_NOTIFICATION_URL is read only by an instance that is its own sandbox bank, and with CLOUDPAYMENTS_API_URL set this one has none",
    );
  });
});

describe("loadConfig writes nothing", () => {
  test("twice from the same environment in a fresh folder: the folder is never made", () => {
    const folder = freshFolder();
    const environment = { DATABASE_PATH: join(folder, "app.db") };
    const first = loadConfig(environment);
    const second = loadConfig(environment);
    expect(second).toEqual(first);
    expect(existsSync(join(folder, ".."))).toBe(false);
    // Unconfigured secrets are left for the start to make.
    expect([first.jwtSecret, first.cloudPaymentsApiSecret]).toEqual(["", ""]);
  });

  test("an empty folder that exists stays empty, its mode unchanged", () => {
    const folder = freshFolder();
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
    loadConfig({ DATABASE_PATH: join(folder, "app.db") });
    loadConfig({ DATABASE_PATH: join(folder, "app.db") });
    expect(readdirSync(folder)).toEqual([]);
    expect(modeOf(folder)).toBe(0o755);
  });

  test("a refused value writes nothing either", () => {
    const folder = freshFolder();
    expect(() =>
      loadConfig({ DATABASE_PATH: join(folder, "app.db"), BILLING_INTERVAL_SECONDS: "1m" }),
    ).toThrow(/BILLING_INTERVAL_SECONDS/);
    expect(existsSync(join(folder, ".."))).toBe(false);
  });
});

describe("the configuration is frozen", () => {
  test("assigning to it, its receipts or its proxy list throws, in type and at run time", () => {
    const config = load({ TRUSTED_PROXIES: "10.0.0.1" });
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      // @ts-expect-error: the type is read-only as well
      config.port = 1;
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error
      config.receipts.vat = 20;
    }).toThrow(TypeError);
    expect(() => (config.trustedProxies as string[]).push("10.0.0.2")).toThrow(TypeError);
    expect(config).toMatchObject({ port: 3000, receipts: { vat: null }, trustedProxies: ["10.0.0.1"] });
  });

  test("a start step's copy is a new frozen object; the one it was made from is unchanged", () => {
    const config = load({});
    const copy = configWith(config, { publicUrl: "http://localhost:4100" });
    expect(Object.isFrozen(copy)).toBe(true);
    expect([config.publicUrl, copy.publicUrl]).toEqual(["http://localhost:3000", "http://localhost:4100"]);
  });
});

describe("prepareDataFolder: the start's step that writes", () => {
  test("makes the folder 0700 and each generated secret 0600, once; the loaded configuration keeps none", () => {
    const folder = freshFolder();
    const environment = { DATABASE_PATH: join(folder, "app.db") };
    const loaded = loadConfig(environment);
    const started = prepareDataFolder(loaded);
    expect(modeOf(folder)).toBe(0o700);
    expect(readdirSync(folder).sort()).toEqual([
      "cloudpayments-api-secret.secret",
      "jwt-secret.secret",
      "yookassa-secret-key.secret",
      "yookassa-shop-id.secret",
    ]);
    for (const name of readdirSync(folder)) expect(modeOf(join(folder, name)), name).toBe(0o600);
    // The demo YooKassa shop: a shop id of digits, as YooKassa's are, and a secret key.
    expect(started.yooKassaShopId).toMatch(/^\d{6}$/);
    expect(started.yooKassaSecretKey.length).toBeGreaterThanOrEqual(32);
    expect(started.jwtSecret).toBe(readFileSync(join(folder, "jwt-secret.secret"), "utf8").trim());
    expect(started.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(started.cloudPaymentsApiSecret).not.toBe(started.jwtSecret);
    expect(Object.isFrozen(started)).toBe(true);
    expect([loaded.jwtSecret, loaded.cloudPaymentsApiSecret]).toEqual(["", ""]);
    // The next start reads them back: tokens signed before a restart stay valid.
    const again = prepareDataFolder(loadConfig(environment));
    expect([
      again.jwtSecret,
      again.cloudPaymentsApiSecret,
      again.yooKassaShopId,
      again.yooKassaSecretKey,
    ]).toEqual([
      started.jwtSecret,
      started.cloudPaymentsApiSecret,
      started.yooKassaShopId,
      started.yooKassaSecretKey,
    ]);
  });

  test("configured secrets are used and never written", () => {
    const folder = freshFolder();
    const started = prepareDataFolder(
      loadConfig({
        DATABASE_PATH: join(folder, "app.db"),
        JWT_SECRET: "j".repeat(40),
        CLOUDPAYMENTS_API_SECRET: "c".repeat(40),
        YOOKASSA_SHOP_ID: "123456",
        YOOKASSA_SECRET_KEY: "y".repeat(40),
      }),
    );
    expect([started.jwtSecret, started.cloudPaymentsApiSecret]).toEqual(["j".repeat(40), "c".repeat(40)]);
    expect([started.yooKassaShopId, started.yooKassaSecretKey]).toEqual(["123456", "y".repeat(40)]);
    expect(modeOf(folder)).toBe(0o700);
    expect(readdirSync(folder)).toEqual([]);
  });

  test("with DATABASE_URL the secrets are left for the database (shared-secrets.ts)", () => {
    const folder = freshFolder();
    const started = prepareDataFolder(
      loadConfig({
        DATABASE_PATH: join(folder, "app.db"),
        DATABASE_URL: "postgres://kannt@127.0.0.1:9/kannt",
      }),
    );
    expect([started.jwtSecret, started.cloudPaymentsApiSecret]).toEqual(["", ""]);
    expect(readdirSync(folder)).toEqual([]);
  });

  test("a context is never built on secrets the start did not make", async () => {
    const database = await openDatabase(":memory:");
    try {
      await expect(createContext(load({}), database, new OffsetClock(0))).rejects.toThrow(
        /generated secrets are missing: run prepareDataFolder/,
      );
    } finally {
      await database.close();
    }
  });
});
