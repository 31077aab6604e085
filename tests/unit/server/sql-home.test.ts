import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { sourceLiterals } from "../../helpers/source-literals";

/**
 * All SQL lives in db/ (CONVENTIONS, Data): the query modules in db/queries/ and the engines'
 * own plumbing. Tables are shared across concepts, so a query layer below every module keeps
 * the module graph one-way. Tests and benchmarks may read the database directly to check it,
 * so only the product's own source is scanned.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const productFolders = ["bff", "core", "src", "agent", "scripts"];
const sourceFile = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|astro)$/;

/**
 * The shapes of SQL statements, each starting at its keyword. A keyword counts only when
 * written in one case (SQL is written `SELECT` or `select`; a sentence says `Select`), so
 * UI text such as "Select a plan from the list" is not taken for a query.
 */
const sqlShapes = [
  /\bselect\s[\s\S]*?\bfrom\s+["\w(]/gi,
  // With no FROM, nothing but the keyword tells a query: only an upper-case one, opening the text.
  /^\s*SELECT\s+\S/g,
  /\binsert\s+(?:or\s+\w+\s+)?into\s+["\w]/gi,
  /\bupdate\s+["\w.]+\s+set\s/gi,
  /\bdelete\s+from\s+["\w]/gi,
  /\b(?:create|alter|drop)\s+(?:(?:temp|temporary|unique|virtual)\s+)?(?:table|index|view|trigger)\b/gi,
  /\bpragma\s+\w/gi,
  /\bvacuum\b(?:\s+into\b|\s*;|\s*$)/gi,
  /\bwith\s+(?:recursive\s+)?\w+(?:\s*\([^)]*\))?\s+as\s*\(/gi,
];

const isOneCase = (word: string) => word === word.toUpperCase() || word === word.toLowerCase();

/** Where the first SQL statement in a text starts, or -1. */
function sqlStart(text: string): number {
  let first = -1;
  for (const shape of sqlShapes) {
    for (const match of text.matchAll(shape)) {
      const keyword = /\w+/.exec(match[0])?.[0] ?? "";
      if (!isOneCase(keyword)) continue;
      if (first === -1 || match.index < first) first = match.index;
      break;
    }
  }
  return first;
}

/** Each SQL statement in a source's string and template literals, as `line: text`. */
function sqlInSource(source: string): string[] {
  const found: string[] = [];
  for (const literal of sourceLiterals(source)) {
    const start = sqlStart(literal.text);
    if (start === -1) continue;
    const line = literal.line + (literal.text.slice(0, start).match(/\n/g)?.length ?? 0);
    found.push(`${line}: ${literal.text.slice(start, start + 60).replace(/\s+/g, " ")}`);
  }
  return found;
}

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* sourceFiles(path);
    } else if (sourceFile.test(entry.name)) yield path;
  }
}

describe("the SQL detector", () => {
  test("finds statements in every kind of literal, on the line they start", () => {
    const source = [
      'const a = "SELECT id FROM users WHERE id = ?";',
      "const b = 'delete from sessions where id = ?';",
      `const c = \`UPDATE users SET email = ? WHERE id = \${id}\`;`,
      "const d = `",
      "  INSERT INTO payments (id) VALUES (?)`;",
      'const e = "SELECT 1";',
      'run("PRAGMA journal_mode = WAL");',
      "const f = `WITH recent AS (SELECT id FROM payments) SELECT * FROM recent`;",
    ].join("\n");
    expect(sqlInSource(source).map((found) => found.split(":")[0])).toEqual([
      "1",
      "2",
      "3",
      "5",
      "6",
      "7",
      "8",
    ]);
  });

  test("ignores comments, regular expressions, prose and markup", () => {
    const source = [
      "// SELECT id FROM users: comments may say what a query does",
      "/* DELETE FROM sessions once they expire */",
      "const pattern = /select .* from users/i;",
      'const label = "Select a plan from the list";',
      "const hint = 'Delete from this device, then update your card to set it again.';",
      'const method = "DELETE";',
      "const view = <p>Don't wait: select one from the menu</p>;",
    ].join("\n");
    expect(sqlInSource(source)).toEqual([]);
  });

  test("stays in step after an apostrophe in markup", () => {
    const source = ["const view = <p>Don't</p>;", 'const query = "SELECT id FROM users";'].join("\n");
    expect(sqlInSource(source)).toEqual(["2: SELECT id FROM users"]);
  });
});

test("no SQL outside db/: the product's source calls db/queries", () => {
  const outside: string[] = [];
  for (const folder of productFolders)
    for (const file of sourceFiles(join(root, folder)))
      for (const found of sqlInSource(readFileSync(file, "utf8")))
        outside.push(`${relative(root, file)}:${found}`);
  expect(outside, "SQL belongs in a db/queries module").toEqual([]);
});
