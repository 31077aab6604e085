import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../bff/server";
import { testDatabaseUrl } from "./test-database";

/**
 * The real server in this process, in demo mode on loopback, with a folder of its own (and a
 * fresh PostgreSQL database when the run is on PostgreSQL): no site, no scheduler, a named
 * first operator (no generated password in the output). `environment` adds or overrides.
 */
export async function startLoopbackServer(name: string, environment: Record<string, string> = {}) {
  const directory = mkdtempSync(join(tmpdir(), `kannt-${name}-`));
  const databaseUrl = await testDatabaseUrl();
  return startServer({
    APP_MODE: "demo",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "error",
    ADMIN_USERNAME: `${name}.admin`,
    ADMIN_PASSWORD: "a long enough password for the first operator",
    BILLING_INTERVAL_SECONDS: "0",
    DATABASE_PATH: join(directory, "app.db"),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    STATIC_DIR: join(directory, "no-site"),
    ...environment,
  });
}
