import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

/**
 * The documentation names files of this repository (README.md, docs/, bench/README.md); a
 * file moved or deleted leaves a reader looking for something that is not there. Every path
 * the pages name is checked to exist:
 *
 * - relative Markdown links, `[text](docs/money.md#anchor)`, resolved from the page's folder;
 * - every word of a backticked span that starts with one of the repository's top folders
 *   (`bff/`, `src/`, `agent/`, …) or is one of its root files, resolved from the root;
 *   a path ending in `/` must be a folder.
 *
 * Every alternative of `bff/modules/access/{devices,nodes}/` must exist, and a pattern such
 * as `tests/unit/agent/agent-*.test.ts` must match at least one file or folder. Skipped: fenced code blocks (commands and the
 * indented map of the code), and words holding a placeholder (`<name>`, `…`), which name no
 * file of their own.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));

const topFolders = [
  "bff",
  "src",
  "agent",
  "db",
  "core",
  "tests",
  "bench",
  "deploy",
  "docs",
  "scripts",
  ".ci",
];
const rootFiles = [
  "package.json",
  "package-lock.json",
  ".env.example",
  "README.md",
  "tsconfig.json",
  "biome.json",
  "bunfig.toml",
  "astro.config.mjs",
  "vitest.config.ts",
  "vitest.sqlite.config.ts",
  "playwright.config.ts",
];

const markdownFiles = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });

const pages = ["README.md", "bench/README.md", ...markdownFiles("docs")];

/** The page without its fenced code blocks, line numbers kept. */
const prose = (text: string) => {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
};

const isPlaceholder = (path: string) => /[<>…]/.test(path);
const trimmed = (word: string) => word.replace(/[.,;:)]+$/, "").replace(/^\(+/, "");

const looksLikeRepositoryPath = (word: string) =>
  rootFiles.includes(word) || topFolders.some((folder) => word.startsWith(`${folder}/`));

type Named = { page: string; line: number; path: string; resolved: string };

function namedPaths(page: string): Named[] {
  const found: Named[] = [];
  prose(readFileSync(join(root, page), "utf8")).forEach((text, index) => {
    const line = index + 1;
    for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith("#") || target.startsWith("/")) continue;
      const path = decodeURIComponent(target.split("#")[0] ?? "");
      if (path === "" || isPlaceholder(path)) continue;
      found.push({ page, line, path: target, resolved: normalize(join(dirname(page), path)) });
    }
    for (const [, span = ""] of text.matchAll(/`([^`]+)`/g))
      for (const word of span.split(/\s+/).map(trimmed)) {
        if (!looksLikeRepositoryPath(word) || isPlaceholder(word)) continue;
        found.push({ page, line, path: word, resolved: word });
      }
  });
  return found;
}

/** `a/{b,c/d}/` as `a/b/` and `a/c/d/`, innermost braces first. */
const alternatives = (path: string): string[] => {
  const braces = /\{([^{}]*)\}/.exec(path);
  if (!braces) return [path];
  const [whole, inside = ""] = braces;
  return inside.split(",").flatMap((choice) => alternatives(path.replace(whole, choice)));
};

const exists = (path: string) => {
  if (path.includes("*"))
    return !new Bun.Glob(path.replace(/\/$/, "")).scanSync({ cwd: root, onlyFiles: false, dot: true }).next()
      .done;
  const full = join(root, path);
  return existsSync(full) && (!path.endsWith("/") || statSync(full).isDirectory());
};

/** Every alternative of a path must exist; a `*` pattern must match at least one file or folder. */
const missing = (named: Named) => !alternatives(named.resolved).every(exists);

describe("documentation", () => {
  test("the pages are found", () => {
    expect(pages).toContain("docs/money.md");
    expect(pages).toContain("docs/operators/nodes.md");
  });

  test("every repository path a page names exists", () => {
    const named = pages.flatMap(namedPaths);
    expect(named.length).toBeGreaterThan(100);
    const stale = named
      .filter(missing)
      .map(({ page, line, path, resolved }) =>
        path === resolved
          ? `${page}:${line} ${path}`
          : `${page}:${line} ${path} (${relative(".", resolved)})`,
      );
    expect(stale).toEqual([]);
  });

  test("every variable the server reads is on the configuration page", () => {
    const read = (path: string) => readFileSync(join(root, path), "utf8");
    const fromConfig = [...read("bff/platform/config.ts").matchAll(/\(environment, "([A-Z][A-Z0-9_]*)"/g)];
    const fromExample = [...read(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)];
    const variables = new Set([...fromConfig, ...fromExample].map(([, name = ""]) => name));
    expect(variables.size).toBeGreaterThan(30);
    const page = read("docs/operators/configuration.md");
    expect([...variables].filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});
