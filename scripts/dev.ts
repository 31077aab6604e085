import { textOf, wholeNumber } from "../bff/platform/config-values";

/**
 * `npm run dev`: the API with reload on :3001 and Astro's dev server on :4321, which
 * proxies /api there. Open http://localhost:4321/en/ (the unprefixed URLs are chosen
 * by the production server, which `npm start` runs).
 */
const apiPort = wholeNumber("DEV_API_PORT", textOf(process.env, "DEV_API_PORT"), {
  min: 1,
  max: 65535,
  fallback: 3001,
});
const api = Bun.spawn(["bun", "--watch", "bff/server.ts"], {
  env: { ...process.env, PORT: String(apiPort) },
  stdout: "inherit",
  stderr: "inherit",
});
const site = Bun.spawn(["bun", "--bun", "x", "astro", "dev"], { stdout: "inherit", stderr: "inherit" });
const stop = () => {
  api.kill();
  site.kill();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
await Promise.race([api.exited, site.exited]);
stop();
