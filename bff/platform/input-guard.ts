import { Elysia } from "elysia";
import { AppError } from "./errors";

/** Bodies larger than this are refused with 413 before a byte of them is read (DESIGN §12). */
export const maxBodyBytes = 64 * 1024;

/**
 * C0 and C1 control characters (NUL included) and the bidi embedding, override and
 * isolate controls: none belongs in a name, e-mail, device name, code or search term,
 * and each can hide what an operator reads ("gpj.exe" shown as "exe.jpg").
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this rule's job.
const forbiddenCharacters = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** The dotted path of the first string that holds a forbidden character, if any. */
export function findForbiddenText(value: unknown, path = "", depth = 0): string | undefined {
  if (typeof value === "string") return forbiddenCharacters.test(value) ? path || "value" : undefined;
  // Parsed JSON nests at most as deep as its text allows; 64 KB cannot hide much, but stay bounded.
  if (value === null || typeof value !== "object" || depth > 64) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (forbiddenCharacters.test(key)) return childPath;
    const found = findForbiddenText(child, childPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether any string of a parsed value, keys included, holds a forbidden character. This
 * runs on every request, so the clean case builds nothing (no entry pairs, no paths);
 * `findForbiddenText` names the field once one is found.
 */
function holdsForbiddenText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return forbiddenCharacters.test(value);
  if (value === null || typeof value !== "object" || depth > 64) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if (forbiddenCharacters.test(key) || holdsForbiddenText(record[key], depth + 1)) return true;
  }
  return false;
}

function refuseForbiddenText(part: "body" | "query" | "path", value: unknown): void {
  if (holdsForbiddenText(value))
    throw new AppError("invisible_character", { part, field: findForbiddenText(value) ?? "value" });
}

/**
 * Global input rules: a declared body over the limit is 413 at once; once parsed, every
 * string of the body, query and path is checked for control and bidi characters (400).
 */
export const inputGuard = new Elysia({ name: "input-guard" })
  .onRequest(({ request }) => {
    const length = Number(request.headers.get("content-length") ?? 0);
    if (length > maxBodyBytes) throw new AppError("body_too_large", { kilobytes: maxBodyBytes / 1024 });
  })
  .onTransform({ as: "global" }, ({ body, query, params }) => {
    refuseForbiddenText("body", body);
    refuseForbiddenText("query", query);
    refuseForbiddenText("path", params);
  });
