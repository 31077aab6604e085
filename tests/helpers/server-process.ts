import { OffsetClock } from "../../bff/platform/clock";
import { startServer, stopOnSignals } from "../../bff/server";
import { shareTestClock, testClockStartOffset } from "./test-clock";

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
// KANNT_TEST_CLOCK_START starts a demo server's test clock there too, before anything is
// asked of it (it is still a demo clock: /api/dev/clock moves it on from there).
const { clock } = started.context;
if (started.config.mode === "demo" && clock instanceof OffsetClock) {
  await shareTestClock(started.database, clock, testClockStartOffset());
}
console.log(`READY ${started.server.port}`);
