import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../bff/platform/config";
import { migrate, openDatabase } from "../../bff/platform/database";

describe("configuration", () => {
  test("needs nothing: demo mode, port 3000, data/app.db, generated secrets kept", () => {
    const directory = mkdtempSync(join(tmpdir(), "kannt-config-"));
    const first = loadConfig({ DATABASE_PATH: join(directory, "app.db") });
    expect(first).toMatchObject({ mode: "demo", port: 3000 });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const second = loadConfig({ DATABASE_PATH: join(directory, "app.db") });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.cloudPaymentsApiSecret).toBe(first.cloudPaymentsApiSecret);
    expect(
      loadConfig({ JWT_SECRET: "x".repeat(40), CLOUDPAYMENTS_API_SECRET: "y".repeat(40) }).databasePath,
    ).toBe("data/app.db");
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
});

describe("database", () => {
  test("a file database runs in WAL with full sync and foreign keys", () => {
    const path = join(mkdtempSync(join(tmpdir(), "kannt-db-")), "app.db");
    const database = openDatabase(path);
    expect(database.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(database.query("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
    expect(database.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    database.close();
  });

  test("migrations are recorded and applied once", () => {
    const database = openDatabase(":memory:");
    expect(migrate(database)).toEqual([]);
    const names = database.query<{ name: string }, []>("SELECT name FROM schema_migrations").all();
    expect(names.map((row) => row.name)).toContain("0001_initial_schema.sql");
  });

  test("every entity of the product has its table", () => {
    const database = openDatabase(":memory:");
    const tables = database
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => row.name);
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

  test("e-mail search finds substrings case-insensitively through the trigram index", () => {
    const database = openDatabase(":memory:");
    const insert = database.prepare(
      "INSERT INTO users (provider_id, uid, email, currency, created_at) VALUES ('demo', ?, ?, 'RUB', 0)",
    );
    insert.run("u1", "Anna.Smirnova@Example.com");
    insert.run("u2", "ivan@mail.ru");
    const found = database
      .query<{ email: string }, [string]>(
        "SELECT u.email FROM users_email_search s JOIN users u ON u.id = s.rowid WHERE users_email_search MATCH ?",
      )
      .all('"smirnova@EXAMPLE"');
    expect(found).toEqual([{ email: "Anna.Smirnova@Example.com" }]);
    database.run("UPDATE users SET email = 'ivan.new@mail.ru' WHERE uid = 'u2'");
    const afterUpdate = database
      .query<{ rowid: number }, [string]>(
        "SELECT rowid FROM users_email_search WHERE users_email_search MATCH ?",
      )
      .all('"van.new"');
    expect(afterUpdate).toHaveLength(1);
  });

  test("the schema refuses a self-invitation and a second invitation of one person", () => {
    const database = openDatabase(":memory:");
    const insert = database.prepare(
      "INSERT INTO users (provider_id, uid, email, currency, created_at) VALUES ('demo', ?, ?, 'RUB', 0)",
    );
    insert.run("a", "a@x.io");
    insert.run("b", "b@x.io");
    const invite = database.prepare(
      "INSERT INTO invitations (inviter_id, invitee_id, created_at) VALUES (?, ?, 0)",
    );
    expect(() => invite.run(1, 1)).toThrow(/CHECK/);
    invite.run(1, 2);
    expect(() => invite.run(1, 2)).toThrow(/UNIQUE/);
  });
});

describe("exclusive use of the database file", () => {
  test("a second process-level open of a file the server holds fails with a clear message", () => {
    const path = join(mkdtempSync(join(tmpdir(), "kannt-lock-")), "app.db");
    const server = openDatabase(path);
    expect(() => openDatabase(path)).toThrow(/in use by a running server; stop it first/);
    server.close();
    expect(() => openDatabase(path).close()).not.toThrow();
  }, 20_000);
});
