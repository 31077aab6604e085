import { Elysia } from "elysia";
import { AppError } from "./errors";

/**
 * Bodies larger than this are refused with 413 (DESIGN §12): a declared one before a byte of it
 * is read, one sent without its length (chunked) as soon as it passes the limit.
 */
export const maxBodyBytes = 64 * 1024;

/**
 * A body sent without its length (chunked) is read here, up to the limit and no further:
 * within it, the request comes back with its body in hand and its length declared; over it,
 * with only the length read so far declared and no body, which the guard below then refuses
 * with its 413 like any other. Otherwise Bun would hold the whole body for whoever reads
 * it, and its own refusal says nothing and carries none of the security headers.
 */
export async function withBoundedBody(
  request: Request,
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): Promise<Request> {
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return withDeclaredBody(request, length, new Blob(chunks));
    length += value.byteLength;
    if (length > maxBodyBytes) {
      // Bun reads the rest past the response, so the next request on the connection is found.
      void reader.cancel().catch(() => {});
      return withDeclaredBody(request, length);
    }
    chunks.push(value);
  }
}

function withDeclaredBody(request: Request, length: number, body?: Blob): Request {
  const headers = new Headers(request.headers);
  headers.delete("transfer-encoding");
  headers.set("content-length", String(length));
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}

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
