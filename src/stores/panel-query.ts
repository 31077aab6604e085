import { atom, type ReadableAtom } from "nanostores";
import type { ErrorCode } from "../../bff/platform/errors";
import { errorCode } from "../lib/api-client";

/**
 * Why a panel call failed: the refusal's code, which says what it means, and the HTTP
 * status, only to tell a dropped connection (none) from an answer.
 */
export type Failure = { status: number | undefined; code?: ErrorCode };

/** One panel read as a screen shows it: loading, failed or ready. */
export type Loaded<T> = { state: "loading" } | ({ state: "failed" } & Failure) | { state: "ready"; data: T };

/** What `panelCall` answers. */
export type Answer<T> = { data: T | null | undefined; error: { status: unknown; value?: unknown } | null };

export type PanelQuery<Q, T> = {
  /** The question on screen (a page, a search, a range): set at once, before its answer. */
  $query: ReadableAtom<Q>;
  $loaded: ReadableAtom<Loaded<T>>;
  /** Asks `query`; the question already asked is not asked again (a retry is). */
  ask: (query: Q) => Promise<void>;
  /** Asks the question on screen again, showing it as loading meanwhile. */
  retry: () => Promise<void>;
};

export const statusOf = (error: { status: unknown } | null | undefined) =>
  typeof error?.status === "number" ? error.status : undefined;

export function failureOf(error: { status: unknown; value?: unknown } | null | undefined): Failure {
  const code = errorCode(error);
  return { status: statusOf(error), ...(code ? { code } : {}) };
}

/**
 * A panel read driven by a question. A new question keeps the last answer on screen until
 * its own arrives, and an answer to an older question (or one asked before a retry) is
 * dropped, so a slow page never overwrites the one the operator turned to since.
 * `onReady` runs with each current answer, before the screen shows it.
 */
export function panelQuery<Q, T>(
  initial: Q,
  load: (query: Q) => Promise<Answer<T>>,
  options: { keyOf?: (query: Q) => string; onReady?: (data: T) => void } = {},
): PanelQuery<Q, T> {
  const keyOf = options.keyOf ?? ((query: Q) => JSON.stringify(query) ?? "");
  const $query = atom<Q>(initial);
  const $loaded = atom<Loaded<T>>({ state: "loading" });
  let askedKey: string | undefined;
  let generation = 0;

  async function run(query: Q): Promise<void> {
    const call = ++generation;
    let next: Loaded<T>;
    try {
      const { data, error } = await load(query);
      next =
        data !== null && data !== undefined
          ? { state: "ready", data }
          : { state: "failed", ...failureOf(error) };
    } catch {
      next = { state: "failed", status: undefined };
    }
    if (call !== generation) return;
    if (next.state === "ready") options.onReady?.(next.data);
    $loaded.set(next);
  }

  return {
    $query,
    $loaded,
    ask(query) {
      const key = keyOf(query);
      if (key === askedKey) return Promise.resolve();
      askedKey = key;
      $query.set(query);
      if ($loaded.get().state !== "ready") $loaded.set({ state: "loading" });
      return run(query);
    },
    retry() {
      $loaded.set({ state: "loading" });
      return run($query.get());
    },
  };
}
