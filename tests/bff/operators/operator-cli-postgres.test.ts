import postgres from "postgres";
import { afterAll, describe, expect, inject, test } from "vitest";
import { createDatabaseOn } from "../../helpers/postgres-cluster";
import { testDatabaseUrl } from "../../helpers/test-database";

/**
 * The operator CLI on PostgreSQL (DATABASE_URL) names the database it works on without its
 * password, and does not set up the product in a database no server has started on.
 */
const opened: postgres.Sql[] = [];
afterAll(async () => {
  for (const sql of opened) await sql.end({ timeout: 1 });
});

/** The URL with a password added: the test cluster trusts local connections, so any will do. */
function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

async function cli(databaseUrl: string, ...args: string[]) {
  const child = Bun.spawn(["bun", "bff/cli.ts", ...args], {
    env: { ...process.env, APP_MODE: "demo", DATABASE_URL: databaseUrl, LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout: stdout.trim(), stderr: stderr.trim() };
}

describe("the operator CLI on PostgreSQL", () => {
  test("says which database it works on, its password left out", async () => {
    const url = (await testDatabaseUrl()) ?? "";
    const made = await cli(withPassword(url, "pw-never-shown"), "node", "pg-cli-1");
    expect(made.exitCode, made.stderr).toBe(0);
    const shown = new URL(url);
    expect(made.stderr).toBe(`Database: postgres://postgres@${shown.host}${shown.pathname} (PostgreSQL)`);
    expect(made.stdout).toMatch(/^Node "pg-cli-1" key \(shown once\): node_\S+$/);
    expect(`${made.stdout}${made.stderr}`).not.toContain("pw-never-shown");
  });

  test("a database no server has started on is refused, and left as it was", async () => {
    const clusterUrl = inject("postgresUrl");
    const name = `empty_${crypto.randomUUID().replaceAll("-", "")}`;
    await createDatabaseOn(clusterUrl, name);
    const url = new URL(clusterUrl);
    url.pathname = `/${name}`;
    const refused = await cli(withPassword(url.toString(), "pw-never-shown"), "node", "vpn1");
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`postgres://postgres@${url.host}/${name} holds no Kannt data`);
    expect(refused.stderr).toContain("DATABASE_URL=postgres://");
    expect(refused.stderr).not.toContain("pw-never-shown");
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    opened.push(sql);
    const tables = await sql`SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public'`;
    expect(tables[0]?.count).toBe(0);
  });
});
