import { startServer } from "../../bff/server";

// The real server as its own process, on the DATABASE_PATH it is given, printing its
// port; used by tests that must kill and restart it (crash safety) and by benchmarks.
process.env.LOG_LEVEL ??= "error";
const { server } = await startServer({
  ...process.env,
  PORT: process.env.PORT ?? "0",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
});
console.log(`READY ${server.port}`);
