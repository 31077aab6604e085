import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProcess } from "./lib";

/**
 * DESIGN §10: Lighthouse performance ≥ 98 on the landing (desktop preset) with
 * Debian's Chromium, for each language. Needs a built site (npm run build); Lighthouse
 * itself comes through npx so the project's install stays lean.
 */
const directory = mkdtempSync(join(tmpdir(), "kannt-lighthouse-"));
const server = await startProcess("tests/helpers/server-process.ts", {
  DATABASE_PATH: join(directory, "app.db"),
  BILLING_INTERVAL_SECONDS: "0",
});
const flags =
  "--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync";
let isOver = false;
try {
  for (const language of ["en", "ru", "zh", "kk"]) {
    const output = join(directory, `${language}.json`);
    const run = Bun.spawnSync(
      [
        "npx",
        "--yes",
        "lighthouse@13",
        `http://127.0.0.1:${server.port}/${language}/`,
        "--preset=desktop",
        "--only-categories=performance",
        "--output=json",
        `--output-path=${output}`,
        "--quiet",
        `--chrome-flags=${flags}`,
      ],
      {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
        stdout: "inherit",
        stderr: "inherit",
      },
    );
    if (run.exitCode !== 0) throw new Error(`lighthouse failed for ${language}`);
    const report = JSON.parse(readFileSync(output, "utf8")) as {
      categories: { performance: { score: number } };
      audits: Record<string, { displayValue?: string }>;
    };
    const score = Math.round(report.categories.performance.score * 100);
    isOver ||= score < 98;
    const audit = (name: string) => report.audits[name]?.displayValue ?? "?";
    console.log(
      `/${language}/ performance ${score} · FCP ${audit("first-contentful-paint")} · LCP ${audit("largest-contentful-paint")} · TBT ${audit("total-blocking-time")} · CLS ${audit("cumulative-layout-shift")}`,
    );
  }
} finally {
  server.stop();
}
if (isOver) process.exit(1);
