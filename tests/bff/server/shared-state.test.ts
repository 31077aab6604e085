import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiOf, identityOf, sessionOf } from "../../helpers/api";
import { postJson } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { login, solveCaptcha } from "../../helpers/operators";
import { remoteApp } from "../../helpers/remote-app";
import { startProcess } from "../../helpers/start-process";
import { testDatabaseUrl } from "../../helpers/test-database";

/**
 * DESIGN §15 with real processes: what one instance decides about sessions, spent captchas
 * and failed sign-ins holds on another instance of the same PostgreSQL database, because
 * it is written there and not kept in one process's memory.
 */
const admin = { username: "shared.admin", password: "a long shared admin password" };
const running: Subprocess[] = [];
afterAll(() => {
  for (const child of running) child.kill(9);
});

async function startInstance(databaseUrl: string) {
  const directory = mkdtempSync(join(tmpdir(), "kannt-shared-"));
  const { child, port } = await startProcess("tests/helpers/server-process.ts", {
    APP_MODE: "demo",
    DATABASE_URL: databaseUrl,
    DATABASE_PATH: join(directory, "app.db"),
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: join(directory, "no-site"),
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    // A light proof of work: the tests solve several.
    ALTCHA_MAX_NUMBER: "5000",
  });
  running.push(child);
  return remoteApp(`http://127.0.0.1:${port}`);
}

let first: ReturnType<typeof remoteApp>;
let second: ReturnType<typeof remoteApp>;
beforeAll(async () => {
  const databaseUrl = await testDatabaseUrl();
  if (!databaseUrl) throw new Error("needs PostgreSQL");
  first = await startInstance(databaseUrl);
  second = await startInstance(databaseUrl);
}, 300_000);

describe("two instances of one database", () => {
  test("a customer signed in on one is signed in on the other, and a logout on either ends it on both within a second", async () => {
    const customer = await signIn(first, "shared.session@example.com");
    const cabinetOn = (instance: typeof first) =>
      apiOf(instance).profile.post(identityOf(customer), sessionOf(customer));
    expect((await cabinetOn(second)).status).toBe(200);
    expect((await cabinetOn(first)).status).toBe(200);

    const loggedOut = await apiOf(second).session.logout.post({}, sessionOf(customer));
    expect(loggedOut.status).toBe(200);
    // The first instance may answer from its read cache, which lives at most a second
    // on a shared database (read-cache.ts); a second after the logout the session is gone
    // there too. Asked once the second is over, however long the machine took to get
    // there: every entry cached before the logout is older than that by then.
    await Bun.sleep(1_000);
    expect((await cabinetOn(first)).status).toBe(401);
    expect((await cabinetOn(second)).status).toBe(401);
  });

  test("a captcha spent on one instance is refused on the other", async () => {
    // Logins are read raw: a refusal is plain text.
    const captcha = await solveCaptcha(first);
    const accepted = await second.handle(postJson("/api/auth/login", { ...admin, captcha }));
    expect(accepted.status).toBe(200);
    const replay = await first.handle(postJson("/api/auth/login", { ...admin, captcha }));
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/already used/);
  });

  test("failed sign-ins count across instances: five wrong passwords split between them lock the account on both", async () => {
    for (const [attempt, instance] of [first, second, first, second, first].entries()) {
      const response = await login(instance, admin.username, `wrong guess ${attempt}`);
      expect(response.status).toBe(401);
    }
    for (const instance of [first, second]) {
      const locked = await login(instance, admin.username, admin.password);
      expect(locked.status).toBe(429);
      expect(await locked.text()).toMatch(/Too many failed sign-ins/);
    }
  }, 300_000);
});
