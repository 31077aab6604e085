import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * JavaScript a page makes the browser download, gzipped: its inline scripts plus
 * every module it loads and, transitively, every module those import statically.
 * Budgets (DESIGN §10): the landing at most 10 KB, any other page at most 100 KB.
 * `--check` exits non-zero when a page is over budget (npm test runs it).
 */
const root = fileURLToPath(new URL("../dist", import.meta.url));
const landingBudget = 10 * 1024;
const pageBudget = 100 * 1024;

const gzipSize = (text: string) => Bun.gzipSync(new TextEncoder().encode(text), { level: 9 }).length;

function htmlFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "_astro" ? [] : htmlFiles(full);
    return entry.name.endsWith(".html") ? [full] : [];
  });
}

/**
 * Static imports always load. Of a module's dynamic imports only one loads at a time
 * (they are the per-language translation chunks), so the largest one is counted.
 */
function moduleClosure(entry: string, seen: Set<string>): void {
  if (seen.has(entry) || !existsSync(entry)) return;
  seen.add(entry);
  const code = readFileSync(entry, "utf8");
  for (const match of code.matchAll(/(?:import|from)\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    moduleClosure(resolve(dirname(entry), match[1] ?? ""), seen);
  }
  const lazy = [...code.matchAll(/import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)]
    .map((match) => resolve(dirname(entry), match[1] ?? ""))
    .filter((path) => existsSync(path))
    .sort((a, b) => gzipSize(readFileSync(b, "utf8")) - gzipSize(readFileSync(a, "utf8")));
  if (lazy[0]) moduleClosure(lazy[0], seen);
}

export type PageWeight = { page: string; bytes: number; budget: number; modules: number };

export function measurePages(): PageWeight[] {
  return htmlFiles(root).map((file) => {
    const html = readFileSync(file, "utf8");
    const page = `/${relative(root, file).split(sep).join("/")}`.replace(/index\.html$/, "");
    const modules = new Set<string>();
    for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
      moduleClosure(join(root, match[1] ?? ""), modules);
    }
    for (const match of html.matchAll(/<astro-island[^>]*>/g)) {
      for (const url of match[0].matchAll(/\s(?:component|renderer)-url="([^"]+)"/g)) {
        moduleClosure(join(root, url[1] ?? ""), modules);
      }
    }
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (m) => m[1] ?? "",
    );
    const external = [...modules].map((path) => readFileSync(path, "utf8"));
    const bytes = [...inline, ...external].reduce((sum, code) => sum + (code.trim() ? gzipSize(code) : 0), 0);
    const isLanding = /^\/(ru|en|zh|kk)\/((tt|yt)\/)?$/.test(page);
    return { page, bytes, budget: isLanding ? landingBudget : pageBudget, modules: modules.size };
  });
}

if (import.meta.main) {
  if (!existsSync(root)) {
    console.error("dist/ is missing: run `npm run build` first.");
    process.exit(1);
  }
  const weights = measurePages().sort((a, b) => a.page.localeCompare(b.page));
  const over = weights.filter((weight) => weight.bytes > weight.budget);
  console.log("page".padEnd(28), "JS gzip".padStart(10), "budget".padStart(10), "modules".padStart(8));
  for (const { page, bytes, budget, modules } of weights) {
    const mark = bytes > budget ? "  OVER" : "";
    console.log(
      page.padEnd(28),
      `${(bytes / 1024).toFixed(2)} KB`.padStart(10),
      `${budget / 1024} KB`.padStart(10),
      String(modules).padStart(8),
      mark,
    );
  }
  if (over.length > 0) {
    console.error(`${over.length} page(s) over their JavaScript budget.`);
    if (process.argv.includes("--check")) process.exit(1);
  }
}
