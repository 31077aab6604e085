import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../../../bff/platform/database";
import type { Database } from "../../../db/database";
import { PostgresDatabase } from "../../../db/postgres";
import { startPostgresCluster } from "../../helpers/postgres-cluster";
import { testDatabaseUrl } from "../../helpers/test-database";

// DESIGN §15: one schema on two engines. The PostgreSQL migrations must give the tables,
// columns, defaults, NOT NULLs, keys, CHECK counts and indexes that SQLite's give, so one
// set of queries means the same on both. Runs in the "postgres" project only.

/** SQLite's declared types as PostgreSQL spells them. */
const postgresType: Record<string, string> = {
  INTEGER: "bigint",
  TEXT: "text",
  BLOB: "bytea",
  REAL: "double precision",
};

/** Objects only one engine has, each with its counterpart on the other. */
const sqliteOnlyTables = /^(?:sqlite_|users_email_search)/;
/** Substring search: FTS5 trigram table on SQLite, pg_trgm index on PostgreSQL. */
const postgresOnlyIndexes = new Set(["users_email_trgm"]);
/** SQLite's `username UNIQUE COLLATE NOCASE` column is a unique index on lower(username) here. */
const postgresUniqueForNocase: Record<string, string> = { operators_by_username: "operators" };

type Column = {
  name: string;
  type: string;
  notNull: boolean;
  defaultValue: string | null;
  identity: boolean;
};
type Schema = {
  columns: Record<string, Column[]>;
  primaryKeys: Record<string, string[]>;
  /** Per table, sorted "columns" of each UNIQUE other than the primary key. */
  uniques: Record<string, string[]>;
  /** Per table, sorted "column -> table.column on delete". */
  foreignKeys: Record<string, string[]>;
  checks: Record<string, number>;
  /** Index name → normalized definition, for the indexes the migrations create by name. */
  indexes: Record<string, string>;
};

const sortedRecord = <T>(entries: [string, T][]) =>
  Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))) as Record<string, T>;

/** A default as text, without PostgreSQL's casts: 'en'::text → 'en'. */
const normalizeDefault = (value: string | null) => (value === null ? null : value.replace(/::[a-z ]+$/, ""));

/**
 * An index definition in one spelling: no schema, method, casts or parentheses, lower case,
 * SQLite's `col COLLATE NOCASE` as PostgreSQL's `lower(col)`.
 */
function normalizeIndex(definition: string): string {
  return (
    definition
      .replace(/\bpublic\./g, "")
      // PostgreSQL shows LIKE by its operator.
      .replace(/ !~~ /g, " NOT LIKE ")
      .replace(/ ~~ /g, " LIKE ")
      .replace(/\bUSING btree\b/gi, "")
      .replace(/(\w+) COLLATE NOCASE/gi, "lower($1)")
      .replace(/::[a-z]+/gi, "")
      .replace(/\blower\((\w+)\)/gi, "lower:$1")
      .replace(/[()]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase()
  );
}

const emptySchema = (): Schema => ({
  columns: {},
  primaryKeys: {},
  uniques: {},
  foreignKeys: {},
  checks: {},
  indexes: {},
});

async function sqliteSchema(database: Database): Promise<Schema> {
  const tables = (
    await database.all<{ name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
  ).filter((table) => !sqliteOnlyTables.test(table.name));
  const schema = emptySchema();
  for (const { name: table, sql } of tables) {
    const info = await database.all<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid', [table]);
    const keyColumns = info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
    // An INTEGER PRIMARY KEY alone is the rowid: numbered by the database, like an identity.
    const rowid =
      keyColumns.length === 1 && keyColumns[0]?.type === "INTEGER" ? keyColumns[0].name : undefined;
    schema.columns[table] = info.map((column) => ({
      name: column.name,
      type: postgresType[column.type] ?? `unknown ${column.type}`,
      // SQLite lets a non-integer PRIMARY KEY column hold NULL (an old quirk the schema never
      // uses); PostgreSQL never does. Compared as what the schema means: not null.
      notNull: column.notnull === 1 || column.pk > 0,
      defaultValue: column.dflt_value,
      identity: column.name === rowid,
    }));
    schema.primaryKeys[table] = keyColumns.map((column) => column.name);
    const indexList = await database.all<{ name: string; unique: number; origin: string }>(
      'SELECT name, "unique", origin FROM pragma_index_list(?)',
      [table],
    );
    const uniques: string[] = [];
    for (const index of indexList.filter((entry) => entry.unique === 1 && entry.origin !== "pk")) {
      const columns = await database.all<{ name: string }>(
        "SELECT name FROM pragma_index_info(?) ORDER BY seqno",
        [index.name],
      );
      uniques.push(columns.map((column) => column.name).join(","));
    }
    schema.uniques[table] = uniques.sort();
    schema.foreignKeys[table] = (
      await database.all<{ from: string; table: string; to: string; on_delete: string }>(
        'SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)',
        [table],
      )
    )
      .map((key) => `${key.from} -> ${key.table}.${key.to} on delete ${key.on_delete.toLowerCase()}`)
      .sort();
    schema.checks[table] = sql.match(/\bCHECK\s*\(/gi)?.length ?? 0;
  }
  const indexes = await database.all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
  );
  schema.indexes = sortedRecord(indexes.map((index) => [index.name, normalizeIndex(index.sql)]));
  return schema;
}

async function postgresSchema(database: Database): Promise<Schema> {
  const schema = emptySchema();
  const columns = await database.all<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
  }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, c.is_identity
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  for (const column of columns) {
    schema.columns[column.table_name] ??= [];
    schema.columns[column.table_name]?.push({
      name: column.column_name,
      type: column.data_type,
      notNull: column.is_nullable === "NO",
      defaultValue: normalizeDefault(column.column_default),
      identity: column.is_identity === "YES",
    });
  }
  for (const table of Object.keys(schema.columns)) {
    schema.primaryKeys[table] = [];
    schema.uniques[table] = [];
    schema.foreignKeys[table] = [];
    schema.checks[table] = 0;
  }

  const indexes = await database.all<{
    index: string;
    table: string;
    primary: number;
    unique: number;
    columns: string;
    backsConstraint: number;
    definition: string;
  }>(
    `SELECT ic.relname AS index, tc.relname AS table, i.indisprimary AS primary, i.indisunique AS unique,
            (SELECT string_agg(pg_get_indexdef(i.indexrelid, k, true), ',' ORDER BY k)
               FROM generate_series(1, i.indnkeyatts) AS k) AS columns,
            EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid) AS "backsConstraint",
            pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class tc ON tc.oid = i.indrelid
      WHERE tc.relnamespace = 'public'::regnamespace`,
  );
  for (const index of indexes) {
    if (index.primary === 1) {
      schema.primaryKeys[index.table] = index.columns.split(",");
    } else if (index.unique === 1) {
      const caseless = postgresUniqueForNocase[index.index] === index.table;
      schema.uniques[index.table]?.push(
        caseless ? index.columns.replace(/^lower\((\w+)\)$/, "$1") : index.columns,
      );
    }
    if (
      index.backsConstraint === 0 &&
      !postgresOnlyIndexes.has(index.index) &&
      !(index.index in postgresUniqueForNocase)
    ) {
      schema.indexes[index.index] = normalizeIndex(index.definition);
    }
  }
  for (const table of Object.keys(schema.uniques)) schema.uniques[table]?.sort();
  schema.indexes = sortedRecord(Object.entries(schema.indexes));

  const foreignKeys = await database.all<{
    table: string;
    from: string;
    to: string;
    toTable: string;
    onDelete: string;
  }>(
    `SELECT tc.relname AS table, a.attname AS from, rc.relname AS "toTable", ra.attname AS to,
            CASE c.confdeltype WHEN 'c' THEN 'cascade' WHEN 'a' THEN 'no action' WHEN 'r' THEN 'restrict'
                 WHEN 'n' THEN 'set null' ELSE 'set default' END AS "onDelete"
       FROM pg_constraint c
       JOIN pg_class tc ON tc.oid = c.conrelid
       JOIN pg_class rc ON rc.oid = c.confrelid
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
      WHERE c.contype = 'f' AND tc.relnamespace = 'public'::regnamespace`,
  );
  for (const key of foreignKeys) {
    schema.foreignKeys[key.table]?.push(`${key.from} -> ${key.toTable}.${key.to} on delete ${key.onDelete}`);
  }
  for (const table of Object.keys(schema.foreignKeys)) schema.foreignKeys[table]?.sort();

  const checks = await database.all<{ table: string; count: number }>(
    `SELECT tc.relname AS table, count(*) AS count
       FROM pg_constraint c JOIN pg_class tc ON tc.oid = c.conrelid
      WHERE c.contype = 'c' AND tc.relnamespace = 'public'::regnamespace
      GROUP BY tc.relname`,
  );
  for (const { table, count } of checks) schema.checks[table] = count;
  return schema;
}

describe("the PostgreSQL schema is the SQLite schema", () => {
  let sqlite: Schema;
  let postgres: Schema;
  let pg: PostgresDatabase;

  beforeAll(async () => {
    const url = await testDatabaseUrl();
    if (!url) throw new Error("runs in the postgres project (KANNT_TEST_DATABASE=postgres)");
    const lite = await openDatabase(":memory:");
    sqlite = await sqliteSchema(lite);
    await lite.close();
    pg = new PostgresDatabase(url, { max: 2 });
    postgres = await postgresSchema(pg);
  });
  afterAll(() => pg?.close());

  test("the same tables, with the same columns in the same order, types, NOT NULLs, defaults and identities", () => {
    expect(Object.keys(postgres.columns).sort()).toEqual(Object.keys(sqlite.columns).sort());
    for (const table of Object.keys(sqlite.columns)) {
      expect
        .soft({ table, columns: postgres.columns[table] })
        .toEqual({ table, columns: sqlite.columns[table] });
    }
  });

  test("the same primary keys, UNIQUE columns, foreign keys and number of CHECKs", () => {
    expect.soft(postgres.primaryKeys).toEqual(sqlite.primaryKeys);
    expect.soft(postgres.uniques).toEqual(sqlite.uniques);
    expect.soft(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
    expect.soft(postgres.checks).toEqual(sqlite.checks);
  });

  test("the same named indexes on the same columns, order and conditions", () => {
    expect(postgres.indexes).toEqual(sqlite.indexes);
  });

  test("a user row goes in and comes back as SQLite gives it; e-mail search ignores case", async () => {
    const createdAt = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
    const { changes } = await pg.run(
      "INSERT INTO users (provider_id, uid, email, currency, created_at) VALUES (?, ?, ?, ?, ?)",
      ["demo", "uid-1", "Ada.Lovelace@Example.com", "RUB", createdAt],
    );
    expect(changes).toBe(1);
    const row = await pg.get<Record<string, unknown>>("SELECT * FROM users WHERE uid = ?", ["uid-1"]);
    expect(row).toEqual({
      id: 1,
      provider_id: "demo",
      uid: "uid-1",
      email: "Ada.Lovelace@Example.com",
      photo_url: null,
      language: "en",
      currency: "RUB",
      invitation_code: null,
      created_at: createdAt,
      deleted_at: null,
    });
    const found = await pg.all<{ id: number }>(
      "SELECT id FROM users WHERE lower(email) LIKE '%' || lower(?) || '%'",
      ["LOVELACE@ex"],
    );
    expect(found).toEqual([{ id: 1 }]);
    expect(await pg.get("SELECT id FROM users WHERE uid = ?", ["nobody"])).toBeUndefined();
  });

  test("usernames are unique whatever their case, as with SQLite's COLLATE NOCASE", async () => {
    const insert =
      "INSERT INTO operators (username, password_hash, role, created_at, updated_at) VALUES (?, 'h', 'admin', 0, 0)";
    await pg.run(insert, ["Admin"]);
    await expect(pg.run(insert, ["admin"])).rejects.toThrow(/operators_by_username/);
  });
});

test("the cluster helper starts a server, copies a template and removes everything when stopped", async () => {
  const cluster = await startPostgresCluster();
  await cluster.createDatabase("origin");
  const origin = new PostgresDatabase(cluster.url("origin"), { max: 1 });
  await origin.exec("CREATE TABLE kept (value TEXT NOT NULL); INSERT INTO kept VALUES ('copied')");
  const folder = (
    await origin.get<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'data_directory'")
  )?.setting;
  await origin.close();
  await cluster.createDatabase("copy", "origin");
  const copy = new PostgresDatabase(cluster.url("copy"), { max: 1 });
  expect(await copy.all("SELECT value FROM kept")).toEqual([{ value: "copied" }]);
  await copy.close();

  expect(folder && existsSync(folder)).toBe(true);
  await cluster.stop();
  expect(folder && existsSync(folder)).toBe(false);
  const after = new PostgresDatabase(cluster.url(), { max: 1 });
  await expect(after.get("SELECT 1")).rejects.toThrow();
  await after.close();
});
