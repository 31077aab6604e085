import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { languages } from "../core/languages";

/**
 * JavaScript a page makes the browser download, gzipped: its inline scripts plus
 * every module it loads and, transitively, every module those import statically, and every
 * chunk they may import lazily (of alternatives such as one language's texts, the largest).
 * Budgets (DESIGN §10): the landing at most 10 KB, any other page at most 100 KB.
 * `--check` exits non-zero when a page is over budget (npm test runs it); `--modules` lists
 * each page's files by size; a folder argument measures another build than dist/.
 */
const builtSite = fileURLToPath(new URL("../dist", import.meta.url));
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

/** Specifiers of a module's static imports and re-exports (always loaded with it). */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:import|from)\s*(["'])(\.{1,2}\/[^"']+)\1/g)].map((match) => match[2] ?? "");
}

/**
 * A lazily loaded chunk: a literal specifier, or a template with interpolations whose every
 * matching file is a candidate (only one of them loads, like one language's texts).
 */
export type LazyImport = { specifier: string } | { directory: string; name: RegExp };

/**
 * Every `import(...)` of a relative module, whatever its quotes: '…', "…" and `…`, the
 * last with or without `${…}` (bundlers emit backticks, and a per-language file is often
 * `import(`./lang-${code}.js`)`). An interpolation matches any run of characters but `/`.
 */
export function lazyImports(code: string): LazyImport[] {
  const found: LazyImport[] = [];
  for (const match of code.matchAll(/import\(\s*(?:(["'])(\.{1,2}\/[^"'\n]+)\1|`(\.{1,2}\/[^`]+)`)\s*\)/g)) {
    const quoted = match[2];
    const template = match[3] ?? "";
    if (quoted !== undefined) {
      found.push({ specifier: quoted });
      continue;
    }
    const parts = template.split(/\$\{[^}]*\}/);
    if (parts.length === 1) {
      found.push({ specifier: template });
      continue;
    }
    // The folder is the literal path before the first interpolation; the rest is matched.
    const head = parts[0] ?? "";
    const directory = head.slice(0, head.lastIndexOf("/") + 1);
    const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const rest = [head.slice(directory.length), ...parts.slice(1)].map(literally).join("[^/]*");
    found.push({ directory, name: new RegExp(`^${rest}$`) });
  }
  return found;
}

/**
 * The chunks a page may load lazily from one module, in groups of alternatives of which only
 * one loads: the matches of one interpolated template, or chunks whose names differ only by a
 * language code (a module's per-language texts). Every other lazy chunk is its own group: a
 * page that opens every dialog loads every one of them.
 */
export function lazyChunkGroups(from: string, code: string): string[][] {
  const groups = new Map<string, string[]>();
  const add = (key: string, path: string) => groups.set(key, [...(groups.get(key) ?? []), path]);
  lazyImports(code).forEach((lazy, index) => {
    if ("specifier" in lazy) {
      const path = resolve(dirname(from), lazy.specifier);
      if (existsSync(path)) add(languageGroup(path) ?? path, path);
      return;
    }
    const directory = resolve(dirname(from), lazy.directory);
    for (const file of filesUnder(directory)) {
      if (lazy.name.test(relative(directory, file).split(sep).join("/"))) add(`template ${index}`, file);
    }
  });
  return [...groups.values()];
}

const languageSegment = new RegExp(`(^|[._-])(?:${languages.join("|")})(?=[._-])`);

/** `…/cabinet.ru.Ab12.js` → `…/cabinet.*` when the name holds a language code; else undefined. */
function languageGroup(path: string): string | undefined {
  const name = basename(path).replace(/\.[\w-]+\.js$/, "");
  return languageSegment.test(`${name}.`)
    ? join(dirname(path), `${name}.`.replace(languageSegment, "$1*"))
    : undefined;
}

function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Adds `entry` and everything it loads to `seen`: static imports always, and of each group of
 * lazy chunks the one that adds the most gzip bytes.
 */
function moduleClosure(entry: string, seen: Set<string>): void {
  if (seen.has(entry) || !existsSync(entry)) return;
  seen.add(entry);
  const code = readFileSync(entry, "utf8");
  for (const specifier of staticImports(code)) moduleClosure(resolve(dirname(entry), specifier), seen);
  for (const group of lazyChunkGroups(entry, code)) {
    let largest: Set<string> | undefined;
    let largestBytes = -1;
    for (const candidate of group) {
      const withIt = new Set(seen);
      moduleClosure(candidate, withIt);
      const bytes = [...withIt]
        .filter((path) => !seen.has(path))
        .reduce((sum, path) => sum + fileGzipSize(path), 0);
      if (bytes > largestBytes) [largest, largestBytes] = [withIt, bytes];
    }
    for (const path of largest ?? []) seen.add(path);
  }
}

const gzipSizes = new Map<string, number>();
function fileGzipSize(path: string): number {
  const known = gzipSizes.get(path);
  if (known !== undefined) return known;
  const code = readFileSync(path, "utf8");
  const bytes = code.trim() ? gzipSize(code) : 0;
  gzipSizes.set(path, bytes);
  return bytes;
}

export type PageWeight = { page: string; bytes: number; budget: number; modules: string[] };

export function measurePages(root = builtSite): PageWeight[] {
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
    const bytes =
      inline.reduce((sum, code) => sum + (code.trim() ? gzipSize(code) : 0), 0) +
      [...modules].reduce((sum, path) => sum + fileGzipSize(path), 0);
    const isLanding = /^\/(ru|en|zh|kk)\/((tt|yt)\/)?$/.test(page);
    return { page, bytes, budget: isLanding ? landingBudget : pageBudget, modules: [...modules] };
  });
}

if (import.meta.main) {
  // Another build's folder may be named (to compare two builds); dist/ by default.
  const root = resolve(process.argv.slice(2).find((argument) => !argument.startsWith("--")) ?? builtSite);
  if (!existsSync(root)) {
    console.error(`${root} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
  const weights = measurePages(root).sort((a, b) => a.page.localeCompare(b.page));
  const over = weights.filter((weight) => weight.bytes > weight.budget);
  console.log("page".padEnd(28), "JS gzip".padStart(10), "budget".padStart(10), "modules".padStart(8));
  for (const { page, bytes, budget, modules } of weights) {
    const mark = bytes > budget ? "  OVER" : "";
    console.log(
      page.padEnd(28),
      `${(bytes / 1024).toFixed(2)} KB`.padStart(10),
      `${budget / 1024} KB`.padStart(10),
      String(modules.length).padStart(8),
      mark,
    );
    // `--modules`: what makes up each page, largest first, to see where its bytes go.
    if (!process.argv.includes("--modules")) continue;
    for (const path of modules.sort((a, b) => fileGzipSize(b) - fileGzipSize(a))) {
      console.log(
        `    ${relative(root, path).padEnd(50)} ${(fileGzipSize(path) / 1024).toFixed(2).padStart(7)} KB`,
      );
    }
  }
  if (over.length > 0) {
    console.error(`${over.length} page(s) over their JavaScript budget.`);
    if (process.argv.includes("--check")) process.exit(1);
  }
}
