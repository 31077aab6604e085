/** The first-party events of DESIGN §16; the server answers 400 to any other name. */
export type AnalyticsEvent = "go_support" | "purchase_started" | "purchase_completed";

/**
 * Counts one event on our own server (`POST /api/events`), never a third party. Fire and
 * forget: `sendBeacon` survives the page being left (a support click opens Telegram, a
 * purchase reloads), and a lost count must never stop what the person was doing.
 * Plain `fetch` rather than the typed client, so the landing ships no client runtime.
 */
export function track(name: AnalyticsEvent): void {
  const body = JSON.stringify({ name });
  try {
    if (navigator.sendBeacon?.("/api/events", new Blob([body], { type: "application/json" }))) return;
    void fetch("/api/events", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      keepalive: true,
      credentials: "same-origin",
    }).catch(() => undefined);
  } catch {
    // Counting is best effort; the click or purchase goes on.
  }
}
