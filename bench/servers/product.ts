import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../bff/server";

// The product's server on a throwaway database, quiet, for benchmarks.
const directory = mkdtempSync(join(tmpdir(), "kannt-bench-"));
const { server } = await startServer({
  ...process.env,
  DATABASE_PATH: process.env.BENCH_DATABASE ?? join(directory, "app.db"),
  LOG_LEVEL: "error",
  PORT: process.env.PORT ?? "0",
});
console.log(`READY ${server.port}`);
