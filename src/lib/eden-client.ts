import type { Treaty } from "@elysiajs/eden";
import type { Elysia } from "elysia";

/**
 * Eden Treaty's client, as much of it as the islands use, in a tenth of its bytes (DESIGN §10
 * counts every page's): `api.a.b.post(body, { headers, query })`, `api.a.get({ headers, query })`,
 * `api.a({ id }).b.post()` for `/a/:id/b`, answered as Eden answers (`{ data, error, status,
 * response, headers }`, a refusal's `error` holding its status and parsed body, an unreachable
 * server as status 503 with the thrown error as `value`). Typed by Eden's own `Treaty.Create`,
 * so a changed route or schema is still a type error. No WebSocket, stream or file upload:
 * no screen sends or reads one.
 */
export class EdenFetchError extends Error {
  constructor(
    readonly status: number,
    readonly value: unknown,
  ) {
    super(String(value));
  }
}

type Options = { headers?: Record<string, string>; query?: Record<string, unknown> };
const methods = ["get", "post", "put", "patch", "delete", "head", "options"];
const withoutBody = ["get", "head"];

// biome-ignore lint/suspicious/noExplicitAny: Eden's own constraint on the server's type.
export function edenClient<App extends Elysia<any, any, any, any, any, any, any>>(origin: string) {
  return route(origin, []) as Treaty.Create<App>;
}

function route(origin: string, path: string[]): unknown {
  return new Proxy(() => undefined, {
    // `await api` must not take the client for a promise.
    get: (_, name) =>
      typeof name !== "string" || name === "then" ? undefined : route(origin, [...path, name]),
    apply(_, __, [first, second]: unknown[]) {
      const method = path.at(-1) ?? "";
      const isParameter = !methods.includes(method) && isObject(first) && Object.keys(first).length === 1;
      if (isParameter) return route(origin, [...path, String(Object.values(first)[0])]);
      const isBodyless = withoutBody.includes(method);
      const options = ((isBodyless ? first : second) ?? {}) as Options;
      return call(`${origin}/${path.slice(0, -1).join("/")}${queryOf(options.query)}`, method, {
        headers: options.headers,
        body: isBodyless ? undefined : first,
      });
    },
  });
}

async function call(
  url: string,
  method: string,
  request: { headers?: Record<string, string>; body: unknown },
) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const init: RequestInit = { method: method.toUpperCase(), credentials: "same-origin", headers };
  if (isObject(request.body)) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(request.body);
  } else if (request.body != null) {
    headers["content-type"] = "text/plain";
    init.body = String(request.body);
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (thrown) {
    return {
      data: null,
      error: new EdenFetchError(503, thrown),
      response: undefined,
      status: 503,
      headers: undefined,
    };
  }
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.split(";")[0] === "application/json";
  const value = isJson ? JSON.parse(text) : textValue(text);
  const answer = { response, status: response.status, headers: response.headers };
  if (response.status >= 200 && response.status < 300) return { data: value, error: null, ...answer };
  return { data: null, error: new EdenFetchError(response.status, value), ...answer };
}

/** `?a=1&b=x&b=y`: lists repeat their name, objects go as JSON, nothing for null or undefined. */
export function queryOf(query: Record<string, unknown> | undefined): string {
  const pairs: string[] = [];
  for (const [name, values] of Object.entries(query ?? {})) {
    for (const value of Array.isArray(values) ? values : [values]) {
      if (value == null) continue;
      const text =
        value instanceof Date ? value.toISOString() : isObject(value) ? JSON.stringify(value) : String(value);
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
    }
  }
  return pairs.length > 0 ? `?${pairs.join("&")}` : "";
}

/** A body that is not JSON reads as Eden reads it: a number, a boolean, JSON in text, or the text. */
export function textValue(text: string): unknown {
  if (text.trim() !== "" && !Number.isNaN(Number(text))) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  const [first, last] = [text.at(0), text.at(-1)];
  if ((first === "{" && last === "}") || (first === "[" && last === "]")) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all: the text itself.
    }
  }
  return text;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;
