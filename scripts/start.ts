import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../bff/platform/config";
import { startConfiguredServer, stopOnSignals } from "../bff/server";
import { astroCommand } from "./site-build";

/**
 * `npm start`: build the site when dist/ is missing or older than its sources, then
 * run the one server process. A second start on an unchanged tree starts at once.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const sources = ["src", "public", "astro.config.mjs", "package-lock.json"].map((name) => join(root, name));
const marker = join(root, "dist", "en", "index.html");

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestChange(join(path, name))),
    stats.mtimeMs,
  );
}

// Read first: a mistyped variable stops the start now, not after a minute of building.
const config = loadConfig();
const isStale = !existsSync(marker) || Math.max(...sources.map(newestChange)) > statSync(marker).mtimeMs;
if (isStale && !config.skipBuild) {
  console.log("Building the site (first start or sources changed)…");
  const build = Bun.spawnSync(astroCommand("build"), {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (build.exitCode !== 0) {
    console.error("The site build failed; see the messages above.");
    process.exit(build.exitCode ?? 1);
  }
}

stopOnSignals(await startConfiguredServer(config));
