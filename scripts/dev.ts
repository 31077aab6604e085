export {};

/**
 * `npm run dev`: the API with reload on :3001 and Astro's dev server on :4321, which
 * proxies /api there. Open http://localhost:4321/en/ (the unprefixed URLs are chosen
 * by the production server, which `npm start` runs).
 */
const api = Bun.spawn(["bun", "--watch", "bff/server.ts"], {
  env: { ...process.env, PORT: process.env.DEV_API_PORT ?? "3001" },
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
