import { startServer, stopOnSignals } from "../../bff/server";

// The real server as its own process, on the DATABASE_PATH it is given, printing its
// port; used by tests that must kill and restart it (crash safety) or stop it (SIGTERM),
// and by benchmarks. It stops on signals exactly as `npm start` does.
process.env.LOG_LEVEL ??= "error";
const started = await startServer({
  ...process.env,
  PORT: process.env.PORT ?? "0",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
});
stopOnSignals(started);
console.log(`READY ${started.server.port}`);
