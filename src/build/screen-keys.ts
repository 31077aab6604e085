import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Build time only (screen-words.ts, the words plugin of astro.config.mjs): which keys of the catalogue an
 * island's code can show. A page then loads those keys in its language rather than the whole
 * catalogue, which DESIGN §10's 100 KB per page cannot carry.
 *
 * It reads the island's own files and, through their relative imports (static and lazy, type
 * imports aside), every file they reach, and takes a key wherever it is written whole (quoted,
 * as a map's value, in a comment alike) or as a template literal starting with one (`plan${n}`
 * takes every key it can end as). A key assembled any other way would be missed, and the
 * screen would show it as its name: the browser tests' untranslated-words check finds that.
 * Extra keys only cost bytes, a missed one costs a word, so any mention counts.
 */
export function keysUsedBy(entry: string, keys: readonly string[]): Set<string> {
  const known = new Set(keys);
  const used = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    for (const specifier of relativeImports(code)) {
      const target = sourceFile(resolve(dirname(file), specifier));
      if (target) pending.push(target);
    }
    for (const [token] of code.matchAll(/[A-Za-z][\w-]*(?:\.[\w-]+)+/g))
      if (known.has(token)) used.add(token);
    for (const pattern of keyTemplates(code)) for (const key of keys) if (pattern.test(key)) used.add(key);
  }
  return used;
}

/** Relative specifiers a module loads at run time: `import … from`, `export … from`, `import "…"`, `import(…)`. */
export function relativeImports(code: string): string[] {
  const found: string[] = [];
  const statements =
    /(?:^|[\n;])\s*(?:import|export)\s+(type\s+)?(?:[^;"'`]*?\sfrom\s*)?(["'])(\.{1,2}\/[^"']+)\2/g;
  for (const match of code.matchAll(statements)) if (!match[1] && match[3]) found.push(match[3]);
  for (const match of code.matchAll(/import\(\s*(["'`])(\.{1,2}\/[^"'`$]+)\1\s*\)/g))
    if (match[2]) found.push(match[2]);
  return found;
}

/** `` `purchase.plan${months}` `` → /^purchase\.plan.+$/: templates that start as a key does. */
export function keyTemplates(code: string): RegExp[] {
  const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...code.matchAll(/`([A-Za-z][\w-]*\.[^`]*)`/g)]
    .map((match) => match[1] ?? "")
    .filter((template) => template.includes("${"))
    .map(
      (template) =>
        new RegExp(
          `^${template
            .split(/\$\{[^}]*\}/)
            .map(literally)
            .join(".+")}$`,
        ),
    );
}

/** The TypeScript file a specifier names; anything else (JSON, CSS, packages) holds no keys of ours. */
function sourceFile(path: string): string | undefined {
  const candidates = [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`, `${path}/index.tsx`];
  return candidates.find((file) => /\.tsx?$/.test(file) && existsSync(file) && statSync(file).isFile());
}
