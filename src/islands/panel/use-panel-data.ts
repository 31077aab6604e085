import { useCallback, useEffect, useState } from "react";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; status: number | undefined }
  | { state: "ready"; data: T };

type Answer<T> = { data: T | null; error: { status: unknown; value: unknown } | null };

/**
 * One panel call's state for a screen: loading, failed (with the HTTP status, if any,
 * so a 404 or 403 can be worded apart from a dropped connection) or ready; `retry` asks again.
 * `key` names what is asked: a change asks anew, and an answer to an older key is dropped.
 */
export function usePanelData<T>(key: string, load: () => Promise<Answer<T>>) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for everything `load` reads.
  useEffect(() => {
    let isCurrent = true;
    setLoaded((previous) => (previous.state === "ready" ? previous : { state: "loading" }));
    load()
      .then(({ data, error }) => {
        if (!isCurrent) return;
        if (data !== null && data !== undefined) setLoaded({ state: "ready", data });
        else
          setLoaded({
            state: "failed",
            status: typeof error?.status === "number" ? error.status : undefined,
          });
      })
      .catch(() => {
        if (isCurrent) setLoaded({ state: "failed", status: undefined });
      });
    return () => {
      isCurrent = false;
    };
  }, [key, attempt]);
  const retry = useCallback(() => {
    setLoaded({ state: "loading" });
    setAttempt((count) => count + 1);
  }, []);
  return { loaded, retry };
}
