import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../../bff/platform/config";
import { prepareDataFolder } from "../../../bff/platform/data-folder";
import { migrate, openDatabase } from "../../../bff/platform/database";
import { startServer } from "../../../bff/server";

/** A fresh in-memory database, and a way to add a demo user with a uid and an e-mail to it. */
async function databaseForUsers() {
  const database = await openDatabase(":memory:");
  const insert = (uid: string, email: string) =>
    database.run(
      "INSERT INTO users (provider_id, uid, email, currency, created_at) VALUES ('demo', ?, ?, 'RUB', 0)",
      [uid, email],
    );
  return { database, insert };
}

describe("configuration", () => {
  test("needs nothing: demo mode, port 3000, data/app.db, generated secrets kept", () => {
    const directory = mkdtempSync(join(tmpdir(), "kannt-config-"));
    const first = prepareDataFolder(loadConfig({ DATABASE_PATH: join(directory, "app.db") }));
    expect(first).toMatchObject({ mode: "demo", port: 3000 });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const second = prepareDataFolder(loadConfig({ DATABASE_PATH: join(directory, "app.db") }));
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.cloudPaymentsApiSecret).toBe(first.cloudPaymentsApiSecret);
    expect(
      loadConfig({ JWT_SECRET: "x".repeat(40), CLOUDPAYMENTS_API_SECRET: "y".repeat(40) }).databasePath,
    ).toBe("data/app.db");
  });

  test("a server's start makes its data folder and secrets, and its configuration stays frozen", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "kannt-config-start-")), "data");
    const started = await startServer({
      PORT: "0",
      DATABASE_PATH: join(folder, "app.db"),
      STATIC_DIR: join(folder, "..", "no-site"),
      BILLING_INTERVAL_SECONDS: "0",
      // Named, so no generated password is printed into the test output.
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "config-start-test-password-0123",
    });
    try {
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(readdirSync(folder)).toEqual(
        expect.arrayContaining(["app.db", "jwt-secret.secret", "cloudpayments-api-secret.secret"]),
      );
      expect(started.context.config.jwtSecret.length).toBeGreaterThanOrEqual(32);
      // PORT=0: the demo's default origin is the port it got, in a new frozen configuration.
      expect(started.context.config.publicUrl).toBe(`http://localhost:${started.server.port}`);
      expect(Object.isFrozen(started.context.config)).toBe(true);
      expect(existsSync(join(folder, "..", "no-site"))).toBe(false);
    } finally {
      await started.shutdown();
    }
  });

  test("production refuses to start with demo parts", () => {
    expect(() =>
      loadConfig({ APP_MODE: "production", DATABASE_PATH: ":memory:", JWT_SECRET: "x".repeat(40) }),
    ).toThrow(/refuses the demo parts.*GOOGLE_CLIENT_ID/);
  });

  test("bad values are refused with a clear message", () => {
    expect(() => loadConfig({ PORT: "eighty", JWT_SECRET: "x".repeat(40) })).toThrow(/PORT must be/);
    expect(() => loadConfig({ APP_MODE: "staging", JWT_SECRET: "x".repeat(40) })).toThrow(/APP_MODE must be/);
  });

  test("DATABASE_URL names PostgreSQL or stops the start, without repeating its password", () => {
    const secrets = {
      DATABASE_PATH: ":memory:",
      JWT_SECRET: "x".repeat(40),
      CLOUDPAYMENTS_API_SECRET: "y".repeat(40),
    };
    expect(loadConfig(secrets).databaseUrl).toBeUndefined();
    for (const url of ["postgres://kannt:pw@db.example:5432/kannt", "postgresql://kannt@db.example/kannt"])
      expect(loadConfig({ ...secrets, DATABASE_URL: url }).databaseUrl).toBe(url);
    for (const url of ["mysql://kannt:s3cret-pw@db.example/kannt", "db.example:5432/kannt", "s3cret-pw"]) {
      const message = (() => {
        try {
          loadConfig({ ...secrets, DATABASE_URL: url });
          return "started";
        } catch (error) {
          return String(error);
        }
      })();
      expect(message).toMatch(/DATABASE_URL must be a postgres:\/\//);
      expect(message).not.toContain("s3cret-pw");
    }
  });
});

describe("database", () => {
  test("a file database runs in WAL with full sync and foreign keys", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kannt-db-")), "app.db");
    const database = await openDatabase(path);
    expect(await database.get("PRAGMA journal_mode")).toEqual({ journal_mode: "wal" });
    expect(await database.get("PRAGMA synchronous")).toEqual({ synchronous: 2 });
    expect(await database.get("PRAGMA foreign_keys")).toEqual({ foreign_keys: 1 });
    await database.close();
  });

  test("migrations are recorded and applied once", async () => {
    const database = await openDatabase(":memory:");
    expect(await migrate(database)).toEqual([]);
    const names = await database.all<{ name: string }>("SELECT name FROM schema_migrations");
    expect(names.map((row) => row.name)).toContain("0001_initial_schema.sql");
  });

  test("every entity of the product has its table", async () => {
    const database = await openDatabase(":memory:");
    const tables = (
      await database.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    ).map((row) => row.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "users",
        "sessions",
        "subscriptions",
        "payments",
        "invitations",
        "devices",
        "connection_logs",
        "promos",
        "operators",
        "refresh_tokens",
        "audit_log",
        "webhook_events",
        "vpn_nodes",
      ]),
    );
  });

  test("e-mail search finds substrings case-insensitively through the trigram index", async () => {
    const { database, insert } = await databaseForUsers();
    await insert("u1", "Anna.Smirnova@Example.com");
    await insert("u2", "ivan@mail.ru");
    const found = await database.all<{ email: string }>(
      "SELECT u.email FROM users_email_search s JOIN users u ON u.id = s.rowid WHERE users_email_search MATCH ?",
      ['"smirnova@EXAMPLE"'],
    );
    expect(found).toEqual([{ email: "Anna.Smirnova@Example.com" }]);
    await database.run("UPDATE users SET email = 'ivan.new@mail.ru' WHERE uid = 'u2'");
    const afterUpdate = await database.all<{ rowid: number }>(
      "SELECT rowid FROM users_email_search WHERE users_email_search MATCH ?",
      ['"van.new"'],
    );
    expect(afterUpdate).toHaveLength(1);
  });

  test("the schema refuses a self-invitation and a second invitation of one person", async () => {
    const { database, insert } = await databaseForUsers();
    await insert("a", "a@x.io");
    await insert("b", "b@x.io");
    const invite = (inviter: number, invitee: number) =>
      database.run("INSERT INTO invitations (inviter_id, invitee_id, created_at) VALUES (?, ?, 0)", [
        inviter,
        invitee,
      ]);
    await expect(invite(1, 1)).rejects.toThrow(/CHECK/);
    await invite(1, 2);
    await expect(invite(1, 2)).rejects.toThrow(/UNIQUE/);
  });
});

describe("exclusive use of the database file", () => {
  test("a second process-level open of a file the server holds fails with a clear message", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kannt-lock-")), "app.db");
    const server = await openDatabase(path);
    await expect(openDatabase(path)).rejects.toThrow(/in use by a running server; stop it first/);
    await server.close();
    await (await openDatabase(path)).close();
  });
});
