import { beforeEach, expect, type Mock, vi } from "vitest";
import type { api } from "../../src/lib/api-client";

/**
 * The one test environment of the stores' network: a fake of the typed API client
 * (`src/lib/api-client`'s `api`) whose every call is a `vi.fn`, found by the same chain the
 * store calls it by. A test says what a call answers and reads what was sent:
 *
 *   vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
 *   const calls = endpoints({ list: (api) => api.panel.nodes.get, create: (api) => api.panel.nodes.post });
 *   const list = endpoint((api) => api.panel.nodes.get);        // the same vi.fn as calls.list
 *   list.mockReturnValueOnce(answer({ nodes: [] }));           // or refusal(409, code, words), networkFailure(), pending()
 *   expect(list).toHaveBeenCalledWith({ headers: { ... } });   // what was sent
 *   expect(pathParams((api) => api.panel.nodes)).toEqual([{ id: 2 }]);
 *
 * A route with a path parameter (`api.a({ id }).b.post`) is one endpoint whatever the
 * parameter; the values sent are kept in order by `pathParams`. `resetStoreApi()` forgets
 * every answer and every request. The state lives on `globalThis`, one per test file, so a
 * module registry reset (`vi.resetModules()`) that loads this file again still sees the same endpoints.
 */
export type ApiClient = typeof api;
// biome-ignore lint/suspicious/noExplicitAny: a client call takes whatever its route declares.
type Call = (...args: any[]) => unknown;
// biome-ignore lint/suspicious/noExplicitAny: answers are built per test, often partial.
export type Endpoint = Mock<(...args: any[]) => any>;

type State = {
  file: string | undefined;
  endpoints: Map<string, Endpoint>;
  params: Map<string, Record<string, unknown>[]>;
};
// One state per test file: a worker that runs several files must not hand one file's answers to the next.
const stateKey = Symbol.for("tests.helpers.store-api");
const holder = globalThis as Record<symbol, State | undefined>;
const file = expect.getState().testPath;
const state: State =
  holder[stateKey]?.file === file && holder[stateKey] !== undefined
    ? holder[stateKey]
    : { file, endpoints: new Map(), params: new Map() };
holder[stateKey] = state;

const methods = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);
const pathOf = Symbol("path");

function isParameter(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.keys(value).length === 1;
}

/** A chain of the client: names and `:parameter`s, as far as it has been followed. */
function chain(
  path: string[],
  onParameter?: (route: string, params: Record<string, unknown>) => void,
): unknown {
  return new Proxy(() => undefined, {
    get(_, name) {
      if (name === pathOf) return path.join(".");
      if (typeof name !== "string" || name === "then") return undefined;
      return chain([...path, name], onParameter);
    },
    apply(_, __, args: unknown[]) {
      // As in Eden: a call ending in a method name is the request, any other call a path parameter.
      if (onParameter && methods.has(path.at(-1) ?? "")) return endpointAt(path.join("."))(...args);
      const [first] = args;
      if (!isParameter(first))
        throw new Error(`store-api: ${path.join(".")} called without a path parameter`);
      const route = path.join(".");
      onParameter?.(route, first);
      return chain([...path, `:${Object.keys(first)[0]}`], onParameter);
    },
  });
}

function endpointAt(route: string): Endpoint {
  let endpoint = state.endpoints.get(route);
  if (!endpoint) {
    endpoint = vi.fn();
    state.endpoints.set(route, endpoint);
  }
  return endpoint;
}

function routeOf(select: (client: ApiClient) => Call): string {
  const path = (select(chain([]) as ApiClient) as unknown as Record<symbol, string>)[pathOf];
  if (typeof path !== "string") throw new Error("store-api: the selector must end at the client's chain");
  return path;
}

/** The fake client the stores get instead of the real one. */
export const fakeApi = chain([], (route, params) => {
  const sent = state.params.get(route) ?? [];
  sent.push(params);
  state.params.set(route, sent);
}) as ApiClient;

/** The `vi.fn` behind one call of the client: set its answers, read what it was sent. */
export function endpoint(select: (client: ApiClient) => Call): Endpoint {
  return endpointAt(routeOf(select));
}

/** Several endpoints at once, by name: `endpoints({ list: (api) => api.panel.nodes.get })`. */
export function endpoints<Names extends string>(
  selectors: Record<Names, (client: ApiClient) => Call>,
): Record<Names, Endpoint> {
  const found = {} as Record<Names, Endpoint>;
  for (const name of Object.keys(selectors) as Names[]) found[name] = endpoint(selectors[name]);
  return found;
}

/** The path parameters sent to a parameterised route, in order: `pathParams((api) => api.panel.nodes)`. */
export function pathParams(select: (client: ApiClient) => unknown): Record<string, unknown>[] {
  const route = (select(chain([]) as ApiClient) as Record<symbol, string>)[pathOf];
  return state.params.get(route ?? "") ?? [];
}

/** Forgets every answer set and every request sent. */
export function resetStoreApi(): void {
  for (const endpoint of state.endpoints.values()) endpoint.mockReset();
  state.params.clear();
}

/**
 * A new panel page for each test: modules loaded afresh (call before importing the store),
 * the operator's token in `stored` and nothing else, no answer set, no request recorded.
 */
export function newPanelPage(stored: Map<string, string>, token = "operator.token"): void {
  vi.resetModules();
  stored.clear();
  stored.set("accessToken", token);
  resetStoreApi();
}

/**
 * The modules of a panel page, loaded afresh for every test: before each, `newPanelPage(stored)`,
 * then `prepare` (more storage, say), then each loader in order. Each name stands for its
 * module as the running test loaded it:
 *   const { store, toasts } = panelPage(stored, { store: () => import("…/panel-nodes"), toasts: () => import("…/toast-store") });
 */
export function panelPage<Modules extends Record<string, object>>(
  stored: Map<string, string>,
  loaders: { [Name in keyof Modules]: () => Promise<Modules[Name]> },
  prepare?: () => void,
): Modules {
  const loaded = {} as Modules;
  beforeEach(async () => {
    newPanelPage(stored);
    prepare?.();
    for (const name of Object.keys(loaders) as (keyof Modules)[]) loaded[name] = await loaders[name]();
  });
  const current = {} as Modules;
  for (const name of Object.keys(loaders) as (keyof Modules)[]) {
    current[name] = new Proxy({} as Modules[typeof name], {
      get: (_, key) => Reflect.get(loaded[name], key),
    });
  }
  return current;
}

/** A server's answer, as the typed client hands it over. */
export const answer = (data: unknown) => Promise.resolve({ data, error: null });

/** A refusal as the server answers it: its status, and its code and words when it sent them. */
export const refusal = (status: number, code?: string, message = "") =>
  Promise.resolve({
    data: null,
    error: { status, value: code ? { success: false, error: { code, message } } : undefined },
  });

/** A refusal whose body holds only the server's words (`{ error: { message } }`), or no body without them. */
export const refusedWith = (status: number, message?: string) =>
  Promise.resolve({ data: null, error: { status, value: message ? { error: { message } } : undefined } });

/** A request that never reached the server: the client reports it as a 503 holding the thrown error. */
export const networkFailure = () =>
  Promise.resolve({ data: null, error: { status: 503, value: new TypeError("Failed to fetch") } });

/** An answer still on its way: hand `promise` to an endpoint, then `finish` it with an answer. */
export function pending() {
  let finish: (value: unknown) => void = () => undefined;
  const promise = new Promise((resolve) => {
    finish = resolve;
  });
  return { promise, finish };
}

/**
 * The panel's browser storage, a Map behind `localStorage`. Call at the top of a test file;
 * `newPanelPage` (or `panelPage`) clears it and puts the operator's token in before each test.
 */
export function panelStorage(): Map<string, string> {
  const stored = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
    removeItem: (key: string) => stored.delete(key),
  });
  return stored;
}
