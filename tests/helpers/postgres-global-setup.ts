import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../bff/platform/database";
import { startPostgresCluster, templateDatabase } from "./postgres-cluster";

/**
 * One throwaway PostgreSQL cluster for the whole run of the "postgres" project: the
 * migrations are applied once, into a template, and every test database is a copy of it
 * (a copy takes milliseconds, migrating a hundred). The tests get the cluster's URL
 * through `inject("postgresUrl")` (see test-database.ts).
 */
export default async function setup(project: TestProject) {
  const started = performance.now();
  const cluster = await startPostgresCluster();
  try {
    await cluster.createDatabase(templateDatabase);
    const database = await openDatabase({ databaseUrl: cluster.url(templateDatabase), databasePath: "" });
    await database.close();
    // A connection to a template makes every copy of it fail: refuse them outright.
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`ALTER DATABASE ${templateDatabase} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    } finally {
      await admin.end({ timeout: 1 });
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide("postgresUrl", cluster.url());
  if (process.env.KANNT_TEST_TIMING) {
    console.log(`PostgreSQL cluster and template ready in ${Math.round(performance.now() - started)} ms`);
  }
  return () => cluster.stop();
}
