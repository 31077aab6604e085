import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../bff/platform/config";
import { apiOf } from "../../helpers/api";
import {
  type CapturedProcess,
  exitCodeOf,
  type RunningServer,
  spawnCaptured,
  startCapturedServer,
} from "../../helpers/captured-process";
import { malformedJsonBodies, objectText, plausibleValue } from "../../helpers/fuzz-inputs";
import { bodySchemaOf, type OpenApiDocument, type Route } from "../../helpers/fuzz-requests";
import { remoteApp } from "../../helpers/remote-app";

// DESIGN §12, modes: an unset APP_MODE is demo only while nothing real is configured;
// production refuses weak or plain-http settings, and in production every demo part
// (all of /api/dev/* whatever the body, the /dev-idp, /dev-mail and /dev-sbp pages) answers 404.

const root = mkdtempSync(join(tmpdir(), "kannt-modes-"));
let folders = 0;
/** A database path in a folder of its own, so generated secrets never land in the repository's data/. */
const freshDatabasePath = () => join(root, `config-${++folders}`, "app.db");

const realSettings = {
  GOOGLE_CLIENT_ID: "1234-kannt.apps.googleusercontent.com",
  YANDEX_CLIENT_ID: "kannt-yandex-client",
  CLOUDPAYMENTS_PUBLIC_ID: "pk_live_kannt",
  // A loopback https address: should anything call the gateway at start, it fails here, not on the internet.
  CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
  RECAPTCHA_SITE_KEY: "recaptcha-site-key",
  RECAPTCHA_SECRET: "recaptcha-secret",
};

const smtpPassword = "smtp-password-never-in-a-message-0123";

/** Everything production needs: real providers and gateway, https URLs, long secrets. */
const production = {
  APP_MODE: "production",
  PUBLIC_URL: "https://kannt.example",
  JWT_SECRET: "production-jwt-secret-0123456789abcdef0123456789",
  CLOUDPAYMENTS_API_SECRET: "production-cloudpayments-api-secret-0123456789",
  GOOGLE_CLIENT_ID: realSettings.GOOGLE_CLIENT_ID,
  YANDEX_CLIENT_ID: realSettings.YANDEX_CLIENT_ID,
  CLOUDPAYMENTS_PUBLIC_ID: realSettings.CLOUDPAYMENTS_PUBLIC_ID,
  CLOUDPAYMENTS_API_URL: realSettings.CLOUDPAYMENTS_API_URL,
  // Loopback and a closed port: nothing is queued, so nothing is ever sent there.
  SMTP_URL: `smtps://kannt:${smtpPassword}@127.0.0.1:9`,
};

const load = (environment: Record<string, string>) =>
  loadConfig({ DATABASE_PATH: freshDatabasePath(), ...environment });

describe("loadConfig: which mode a set of variables starts", () => {
  test.each(Object.keys(realSettings))("APP_MODE unset with only %s set refuses, naming APP_MODE", (name) => {
    const value = realSettings[name as keyof typeof realSettings];
    expect(() => load({ [name]: value })).toThrow(/APP_MODE/);
    expect(() => load({ [name]: value })).toThrow(new RegExp(name));
  });

  test("APP_MODE unset with nothing real is demo, CLOUDPAYMENTS_API_SECRET alone included (the sandbox signs with it)", () => {
    expect(load({}).mode).toBe("demo");
    const config = load({ CLOUDPAYMENTS_API_SECRET: "sandbox-secret-that-is-long-enough-0000" });
    expect(config.mode).toBe("demo");
    expect(config.cloudPaymentsApiSecret).toBe("sandbox-secret-that-is-long-enough-0000");
  });

  test("APP_MODE=demo with every real setting runs the demo on purpose", () => {
    expect(load({ APP_MODE: "demo", ...realSettings }).mode).toBe("demo");
  });

  test("a complete https production configuration loads as production with its real settings", () => {
    const config = load(production);
    expect(config).toMatchObject({
      mode: "production",
      publicUrl: "https://kannt.example",
      jwtSecret: production.JWT_SECRET,
      googleClientId: production.GOOGLE_CLIENT_ID,
      cloudPaymentsApiUrl: production.CLOUDPAYMENTS_API_URL,
      smtpUrl: production.SMTP_URL,
      mailFrom: "Kannt <no-reply@kannt.example>",
    });
  });

  test("demo mode: PUBLIC_URL defaults to http://localhost:{PORT}, MAIL_FROM to no-reply on its host, no SMTP", () => {
    expect(load({ PORT: "4100" })).toMatchObject({
      publicUrl: "http://localhost:4100",
      isPublicUrlDefault: true,
      mailFrom: "Kannt <no-reply@localhost>",
      smtpUrl: undefined,
    });
    expect(
      load({ PUBLIC_URL: "https://demo.kannt.example/", MAIL_FROM: "Kannt <hi@kannt.example>" }),
    ).toMatchObject({
      publicUrl: "https://demo.kannt.example",
      isPublicUrlDefault: false,
      mailFrom: "Kannt <hi@kannt.example>",
    });
  });

  test.each(["http://mail.example", "mail.example:587", "smtp://", "ftp://user:pw@mail.example"])(
    "SMTP_URL %s (not an smtp:// or smtps:// URL with a host) refuses to start in any mode",
    (url) => {
      expect(() => load({ SMTP_URL: url })).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(() => load({ ...production, SMTP_URL: url })).toThrow(/SMTP_URL/);
    },
  );

  test("a refused SMTP_URL is never repeated in the message: it holds the password", () => {
    let message = "";
    try {
      load({ SMTP_URL: `https://kannt:${smtpPassword}@mail.example` });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/SMTP_URL/);
    expect(message).not.toContain(smtpPassword);
  });

  test("production refuses a JWT_SECRET under 32 bytes and counts bytes, not characters", () => {
    expect(() => load({ ...production, JWT_SECRET: "x".repeat(31) })).toThrow(/JWT_SECRET.*32 bytes/);
    expect(load({ ...production, JWT_SECRET: "abcdefgh".repeat(4) }).mode).toBe("production");
    // 16 two-byte letters are 32 bytes: long enough although only 16 characters.
    expect(load({ ...production, JWT_SECRET: "жзийклмн".repeat(2) }).mode).toBe("production");
  });

  test("production refuses a JWT_SECRET of fewer than 8 different characters, however long", () => {
    for (const weak of ["a".repeat(64), "ab".repeat(32), "abcdefg".repeat(10), "ж".repeat(40)])
      expect(() => load({ ...production, JWT_SECRET: weak }), weak).toThrow(
        /JWT_SECRET.*at least 8 different characters/,
      );
    expect(load({ ...production, JWT_SECRET: "abcdefgh".repeat(8) }).mode).toBe("production");
  });

  test.each([
    ["hex (openssl rand -hex 32)", "3f9a1c07e2b84d6c5a0e91f7b2d43c8e6a1f0b9d2c7e4a35b8f6d01c9e2a7b43"],
    ["base64 (openssl rand -base64 48)", "q8Vw3Nf+T2kLr9Yx0bPz1cDj5HmA7sGe4UoIi6XtWlQaRvKn/BZyFhOdMEg8CJpS"],
    ["base64url", "Zk2_p9Qw-Lr4Tn8Xv1Bc6Hd3Jf0Gs5Ma7Ey2Ru9Ki4Ol8Np1Sq3Ux6Wz0Ab5Cd7"],
  ])("a random %s JWT_SECRET of 32 bytes or more passes", (_, secret) => {
    expect(load({ ...production, JWT_SECRET: secret }).mode).toBe("production");
  });

  test.each(["http://kannt.example", "kannt.example", "ftp://kannt.example"])(
    "production refuses PUBLIC_URL %s (not https)",
    (url) => {
      expect(() => load({ ...production, PUBLIC_URL: url })).toThrow(/PUBLIC_URL.*https/);
    },
  );

  test.each(["http://api.cloudpayments.ru", "api.cloudpayments.ru"])(
    "production refuses CLOUDPAYMENTS_API_URL %s (not https)",
    (url) => {
      expect(() => load({ ...production, CLOUDPAYMENTS_API_URL: url })).toThrow(
        /CLOUDPAYMENTS_API_URL.*https/,
      );
    },
  );

  test.each(Object.keys(production).filter((name) => name !== "APP_MODE"))(
    "production without %s refuses to fall back to a demo part, naming it",
    (name) => {
      const { [name as keyof typeof production]: _, ...rest } = production;
      expect(() => load(rest)).toThrow(new RegExp(`APP_MODE=production.*${name}`));
    },
  );
});

/** A minimal built site in which the demo pages exist, so only the mode can hide them. */
function fakeBuiltSite(): string {
  const site = join(root, "site");
  const page = (path: string) => {
    mkdirSync(join(site, path), { recursive: true });
    writeFileSync(join(site, path, "index.html"), `<!doctype html><title>${path}</title>`);
  };
  page("en");
  for (const prefix of ["", ...languages.map((language) => `${language}/`)]) {
    page(`${prefix}dev-idp`);
    page(`${prefix}dev-mail`);
    page(`${prefix}dev-sbp`);
  }
  return site;
}

const languages = ["ru", "en", "zh", "kk"];
const demoPageUrls = ["dev-idp", "dev-mail", "dev-sbp"].flatMap((page) =>
  ["", ...languages.map((language) => `/${language}`)].flatMap((prefix) =>
    ["", "/", "/index.html", "?from=test"].map((suffix) => `${prefix}/${page}${suffix}`),
  ),
);

let demo: RunningServer;
let productionServer: RunningServer;
let devRoutes: Route[];
let refused: CapturedProcess;
let badInterval: CapturedProcess;

beforeAll(async () => {
  // Started first and left to exit on its own while the two servers start.
  refused = spawnCaptured("bff/server.ts", {
    PORT: "0",
    DATABASE_PATH: join(root, "refused", "app.db"),
    BILLING_INTERVAL_SECONDS: "0",
    GOOGLE_CLIENT_ID: realSettings.GOOGLE_CLIENT_ID,
  });
  badInterval = spawnCaptured("bff/server.ts", {
    PORT: "0",
    DATABASE_PATH: join(root, "bad-interval", "data", "app.db"),
    BILLING_INTERVAL_SECONDS: "1m",
  });
  const staticDirectory = fakeBuiltSite();
  const common = { BILLING_INTERVAL_SECONDS: "0", STATIC_DIR: staticDirectory };
  [demo, productionServer] = await Promise.all([
    startCapturedServer({ ...common, DATABASE_PATH: join(root, "demo", "app.db") }),
    startCapturedServer({ ...common, ...production, DATABASE_PATH: join(root, "production", "app.db") }),
  ]);
  // The demo app documents its demo routes; production hides them, so the list comes from demo.
  const document = (await (await fetch(`${demo.origin}/api/docs/json`)).json()) as OpenApiDocument;
  devRoutes = Object.entries(document.paths)
    .filter(([path]) => path === "/api/dev" || path.startsWith("/api/dev/"))
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
});

afterAll(async () => {
  // A no-op for a process that exited, as it should have.
  refused?.child.kill(9);
  badInterval?.child.kill(9);
  await Promise.all([demo?.stop(), productionServer?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

type Probe = { label: string; path: string; init: RequestInit };

const methodsWithBody = ["POST", "PUT", "PATCH", "DELETE"];
const methodsWithoutBody = ["GET", "HEAD", "OPTIONS"];
const json = { "content-type": "application/json" };

/** A documented field filled with a value its schema accepts. */
function validBodyOf(route: Route): string {
  const properties = bodySchemaOf(route)?.properties ?? {};
  const known = {
    email: "modes@example.com",
    advanceDays: 1,
    cardNumber: "4242 4242 4242 4242",
    expiry: "12/30",
    // The sandboxes' outage switch: kept up, so the routes tried after it answer as themselves.
    isDown: false,
    // Nor are the SBP banks' decisions held: a later wait for them would never end.
    isHeld: false,
  };
  return objectText(
    Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [
        name,
        JSON.stringify(plausibleValue(name, schema, known)),
      ]),
    ),
  );
}

/** The same fields, each of a type no schema accepts. */
/** The domain code of a refusal's JSON body; `not_found` for a body that is none. */
function errorCodeOf(body: string): string {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === "string" ? code : "not_found";
  } catch {
    return "not_found";
  }
}

function invalidBodyOf(route: Route): string {
  const names = Object.keys(bodySchemaOf(route)?.properties ?? { unexpected: {} });
  return objectText(Object.fromEntries(names.map((name) => [name, '{"$gt":""}'])));
}

/** The body with one more field of `length` characters. */
function withPadding(body: string, length: number): string {
  const padding = `"padding":"${"a".repeat(length)}"`;
  return body === "{}" ? `{${padding}}` : `{${padding},${body.slice(1)}`;
}

/** Every method, and for each body method every kind of body: valid, invalid, malformed, none, large. */
function probesFor(route: Route): Probe[] {
  const paths = [route.path, `${route.path}/`, `${route.path}?accountId=1&token=x`];
  const valid = validBodyOf(route);
  const gatewayCredentials = `Basic ${btoa(`${production.CLOUDPAYMENTS_PUBLIC_ID}:${production.CLOUDPAYMENTS_API_SECRET}`)}`;
  const bodies: [string, RequestInit][] = [
    ["valid body", { headers: json, body: valid }],
    [
      "valid body with the gateway's Basic credentials",
      { headers: { ...json, authorization: gatewayCredentials }, body: valid },
    ],
    ["invalid body", { headers: json, body: invalidBodyOf(route) }],
    ["no body", {}],
    ["empty JSON body", { headers: json, body: "" }],
    [
      "valid body as a form",
      { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40b.c" },
    ],
    ["valid body as text", { headers: { "content-type": "text/plain" }, body: valid }],
    // Just under the 64 KB limit, so it is the gate that answers and not the size check.
    ["large body", { headers: json, body: withPadding(valid, 60_000) }],
    ...Object.entries(malformedJsonBodies).map(([label, body]): [string, RequestInit] => [
      `malformed JSON: ${label}`,
      { headers: json, body },
    ]),
  ];
  return paths.flatMap((path) => [
    ...methodsWithoutBody.map((method) => ({ label: `${method} ${path}`, path, init: { method } })),
    ...methodsWithBody.flatMap((method) =>
      bodies.map(([label, init]) => ({
        label: `${method} ${path}, ${label}`,
        path,
        init: { ...init, method },
      })),
    ),
  ]);
}

/** Sends the probes a few at a time: enough to be quick, few enough for a shared 2-core machine. */
async function answersOf(origin: string, probes: Probe[]) {
  const answers: { probe: Probe; status: number; body: string; type: string }[] = [];
  for (let start = 0; start < probes.length; start += 16) {
    const batch = probes.slice(start, start + 16);
    answers.push(
      ...(await Promise.all(
        batch.map(async (probe) => {
          const response = await fetch(`${origin}${probe.path}`, probe.init);
          return {
            probe,
            status: response.status,
            type: response.headers.get("content-type") ?? "",
            body: await response.text(),
          };
        }),
      )),
    );
  }
  return answers;
}

describe("start-up of real server processes", () => {
  test("APP_MODE unset with GOOGLE_CLIENT_ID set: the server exits non-zero, naming APP_MODE", async () => {
    expect(await exitCodeOf(refused, 15_000)).not.toBe(0);
    expect(refused.stderr()).toMatch(/APP_MODE is not set but GOOGLE_CLIENT_ID is configured/);
    expect(refused.stdout()).not.toMatch(/listening/);
  });

  test("BILLING_INTERVAL_SECONDS=1m: the server exits non-zero, naming it and what it takes, and writes nothing", async () => {
    expect(await exitCodeOf(badInterval, 15_000)).not.toBe(0);
    expect(badInterval.stderr()).toMatch(
      /BILLING_INTERVAL_SECONDS must be a whole number of seconds from 0 to 86400 .*got "1m"/,
    );
    expect(badInterval.stdout()).not.toMatch(/listening/);
    // Loading the configuration failed before the start's step that makes the data folder.
    expect(existsSync(join(root, "bad-interval"))).toBe(false);
  });

  test("the documented demo routes are all found: the list below is not empty and demo answers them", async () => {
    const paths = devRoutes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        "POST /api/dev/idp/token",
        "POST /api/dev/sandbox/pay",
        "GET /api/dev/sandbox/ledger",
        "POST /api/dev/clock",
        "POST /api/dev/billing/run",
        "POST /api/dev/fixtures/subscription",
        "GET /api/dev/mail",
        "POST /api/dev/sandbox/cloudpayments/payments/tokens/charge",
      ]),
    );
    // The demo server takes the valid bodies and refuses the invalid ones: so a production
    // 404 below is the gate's doing, not a body that would have been refused anyway.
    const problems: string[] = [];
    for (const route of devRoutes) {
      const hasBody = bodySchemaOf(route) !== undefined;
      const send = (body?: string) =>
        fetch(`${demo.origin}${route.path}`, {
          method: route.method,
          headers: body === undefined ? {} : json,
          body,
        });
      const valid = await send(hasBody ? validBodyOf(route) : undefined);
      const answer = await valid.text();
      // A 404 with a domain code of its own (a QR the demo bank does not have) is the route's
      // answer; only `not_found` is the one an unknown route, or the production gate, gives.
      const isUnknownRoute = valid.status === 404 && errorCodeOf(answer) === "not_found";
      if (isUnknownRoute || valid.status === 400)
        problems.push(`${route.method} ${route.path} valid: ${valid.status} ${answer}`);
      if (!hasBody) continue;
      for (const body of [invalidBodyOf(route), "{"]) {
        const refused = await send(body);
        if (refused.status !== 400) problems.push(`${route.method} ${route.path} ${body}: ${refused.status}`);
        await refused.body?.cancel();
      }
    }
    expect(problems).toEqual([]);
  });

  test("production: every /api/dev route, by every method and with any body, is a 404 JSON error", async () => {
    const extras: Route[] = ["/api/dev", "/api/dev/", "/api/dev/no-such-route"].map((path) => ({
      method: "GET",
      path,
      operation: {},
    }));
    const probes = [...devRoutes, ...extras].flatMap(probesFor);
    const answers = await answersOf(productionServer.origin, probes);
    const wrong = answers
      .filter(({ probe, status, type, body }) => {
        if (status !== 404) return true;
        if (probe.init.method === "HEAD") return false;
        if (!type.includes("application/json")) return true;
        const parsed = JSON.parse(body) as { success?: boolean; error?: { code?: string } };
        return parsed.success !== false || parsed.error?.code !== "not_found";
      })
      .map(({ probe, status, body }) => `${probe.label}: ${status} ${body.slice(0, 120)}`);
    expect(wrong).toEqual([]);
    expect(answers.length).toBeGreaterThan(1000);
  });

  test("production: the OpenAPI document does not list the demo routes", async () => {
    const document = (await (
      await fetch(`${productionServer.origin}/api/docs/json`)
    ).json()) as OpenApiDocument;
    expect(Object.keys(document.paths)).toContain("/api/health");
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/api/dev/"))).toEqual([]);
  });

  test("the /dev-idp, /dev-mail and /dev-sbp pages (any language, trailing slash) are served in demo and 404 in production", async () => {
    const probes = demoPageUrls.flatMap((path) =>
      ["GET", "HEAD"].map((method) => ({ label: `${method} ${path}`, path, init: { method } })),
    );
    const inDemo = await answersOf(demo.origin, probes);
    expect(inDemo.filter((answer) => answer.status !== 200).map((answer) => answer.probe.label)).toEqual([]);
    const inProduction = await answersOf(productionServer.origin, probes);
    expect(
      inProduction.filter((answer) => answer.status !== 404).map((answer) => answer.probe.label),
    ).toEqual([]);
    // The rest of the site is still served: only the demo pages are hidden.
    expect((await fetch(`${productionServer.origin}/en/`)).status).toBe(200);
  });

  test("production: /api/health and the staff captcha challenge still work", async () => {
    const api = apiOf(remoteApp(productionServer.origin));
    const health = await api.health.get();
    expect(health.status).toBe(200);
    expect(health.data).toMatchObject({ status: "ok", mode: "production" });
    const captcha = await api.auth.captcha.get();
    expect(captcha.status).toBe(200);
    expect(captcha.data).toMatchObject({
      provider: "altcha",
      algorithm: "SHA-256",
      challenge: expect.any(String),
      signature: expect.any(String),
    });
  });
});
