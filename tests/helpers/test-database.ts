import postgres from "postgres";
import { inject } from "vitest";
import { createDatabaseWith, templateDatabase } from "./postgres-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test cluster's `postgres` database, set by postgres-global-setup.ts. */
    postgresUrl: string;
  }
}

/** Which engine this run's tests use: KANNT_TEST_DATABASE=postgres, else SQLite. */
export const testEngine = (): "sqlite" | "postgres" =>
  process.env.KANNT_TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

let admin: postgres.Sql | undefined;

/**
 * The database a test app should run on: undefined on SQLite (the app takes its in-memory
 * file); on PostgreSQL a fresh database copied from the migrated template, so each test
 * starts empty and needs no migration of its own.
 */
export async function testDatabaseUrl(): Promise<string | undefined> {
  if (testEngine() !== "postgres") return undefined;
  const clusterUrl = inject("postgresUrl");
  if (!clusterUrl) throw new Error("KANNT_TEST_DATABASE=postgres needs the postgres project's global setup");
  // One connection per test worker creates the databases; idle, it closes by itself.
  admin ??= postgres(clusterUrl, { max: 1, onnotice: () => {}, idle_timeout: 5 });
  const name = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  await createDatabaseWith(admin, name, templateDatabase);
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
