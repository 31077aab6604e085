import { vi } from "vitest";

/**
 * A Web Storage kept in memory. Keys are the object's own properties, as in a browser,
 * because the persistent atoms read and write `localStorage[key]` while the storage helpers
 * call getItem and setItem: both must see the same values.
 */
export class MemoryStorage {
  [key: string]: unknown;
  getItem(key: string): string | null {
    return Object.hasOwn(this, key) ? String(this[key]) : null;
  }
  setItem(key: string, value: string): void {
    this[key] = String(value);
  }
  removeItem(key: string): void {
    delete this[key];
  }
  clear(): void {
    for (const key of Object.keys(this)) delete this[key];
  }
}

/**
 * The browser a customer store runs in: both storages, the address bar (navigations are
 * recorded, never made) and the history. Installed before the stores are imported, since
 * the persistent atoms pick their storage when they load.
 */
export function installCustomerBrowser(page = "https://kannt.example/profile") {
  const url = new URL(page);
  const localStorage = new MemoryStorage();
  const sessionStorage = new MemoryStorage();
  const location = {
    origin: url.origin,
    href: url.href,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    assign: vi.fn(),
    replace: vi.fn(),
    reload: vi.fn(),
  };
  const history = { state: null, replaceState: vi.fn() };
  vi.stubGlobal("localStorage", localStorage);
  vi.stubGlobal("sessionStorage", sessionStorage);
  vi.stubGlobal("location", location);
  vi.stubGlobal("history", history);
  return { localStorage, sessionStorage, location, history };
}

// The answers the fake API client hands over live with it; the customer tests take them from here too.
export { answer, networkFailure, refusal } from "./store-api";

/** The stores log every failure for whoever debugs the page; in these tests that is noise. */
export function silenceStoreLogs(): void {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
}

/** A customer page opened at `page`: its browser installed (see installCustomerBrowser), the store logs silenced. */
export function openCustomerPage(page?: string) {
  const browser = installCustomerBrowser(page);
  silenceStoreLogs();
  return browser;
}
