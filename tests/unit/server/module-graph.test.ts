import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * The layers point one way (CONVENTIONS): core imports nothing of ours, the platform knows
 * no feature, the front end sees the server only through types, and no two backend
 * modules need each other (two that would share a smaller third instead).
 */
const root = path.resolve(import.meta.dirname, "../../..");

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, folder))) {
    const relative = path.join(folder, name);
    if (statSync(path.join(root, relative)).isDirectory()) out.push(...sourceFiles(relative));
    else if (/\.(ts|tsx)$/.test(name)) out.push(relative);
  }
  return out;
}

type Import = { from: string; to: string; isTypeOnly: boolean };

/** Every relative import of `file`, resolved to a path from the repository's root. */
function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const found: Import[] = [];
  const pattern =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[3] ?? match[4];
    if (!specifier) continue;
    found.push({
      from: file,
      to: path.normalize(path.join(path.dirname(file), specifier)),
      isTypeOnly: match[2] !== undefined,
    });
  }
  return found;
}

const moduleOf = (file: string) => file.match(/^bff\/modules\/([^/]+)/)?.[1];

describe("the layers point one way", () => {
  test("core imports nothing from the server, the site, the database or the agent", () => {
    const outward = sourceFiles("core")
      .flatMap(importsOf)
      .filter((edge) => !edge.to.startsWith("core/"));
    expect(outward).toEqual([]);
  });

  test("the platform knows no feature: nothing under bff/platform imports a module, a job or an adapter", () => {
    const upward = sourceFiles("bff/platform")
      .flatMap(importsOf)
      .filter((edge) => /^bff\/(modules|jobs|adapters)\//.test(edge.to));
    expect(upward).toEqual([]);
  });

  test("the site sees the server only through types", () => {
    const runtime = sourceFiles("src")
      .flatMap(importsOf)
      .filter((edge) => /^(bff|db)\//.test(edge.to) && !edge.isTypeOnly);
    expect(runtime).toEqual([]);
  });

  test("no backend module depends on itself through others: the module graph has no cycle", () => {
    const edges = new Map<string, Set<string>>();
    for (const edge of sourceFiles("bff/modules").flatMap(importsOf)) {
      const from = moduleOf(edge.from);
      const to = moduleOf(edge.to);
      if (!from || !to || from === to) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    // A module that reaches itself again is in a cycle; name the path for whoever breaks it.
    const cycles: string[] = [];
    for (const start of edges.keys()) {
      const stack: string[][] = [[start]];
      const seen = new Set<string>();
      while (stack.length > 0) {
        const trail = stack.pop() as string[];
        for (const next of edges.get(trail.at(-1) as string) ?? []) {
          if (next === start) cycles.push([...trail, next].join(" → "));
          else if (!seen.has(next)) {
            seen.add(next);
            stack.push([...trail, next]);
          }
        }
      }
    }
    expect(cycles).toEqual([]);
  });

  test("modules do not reach up into the jobs that run them (the demo-only dev module aside)", () => {
    const upward = sourceFiles("bff/modules")
      .flatMap(importsOf)
      .filter((edge) => edge.to.startsWith("bff/jobs/") && moduleOf(edge.from) !== "dev");
    expect(upward).toEqual([]);
  });
});
