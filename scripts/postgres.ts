import { startPostgresCluster } from "../tests/helpers/postgres-cluster";

/**
 * `npm run postgres`: a throwaway PostgreSQL for trying the server on it (DESIGN §15). Starts
 * a cluster from Debian's binaries in a folder under /tmp, creates the database `kannt`,
 * prints its URL and runs until Ctrl-C, which stops it and deletes every byte of it.
 * In another terminal: DATABASE_URL=<the URL> npm start (the server applies the migrations).
 */
const cluster = await startPostgresCluster();
await cluster.createDatabase("kannt");
console.log(
  `PostgreSQL is running. In another terminal:\n\n  DATABASE_URL=${cluster.url("kannt")} npm start\n`,
);
console.log("Ctrl-C stops it and deletes its data.");

const stop = async () => {
  await cluster.stop();
  process.exit(0);
};
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());
// Nothing else keeps the process alive: wait here until a signal stops it.
setInterval(() => {}, 1 << 30);
