/**
 * Outgoing HTTP for adapters (Yandex info endpoint, payment gateway). In demo mode
 * their base URLs point at the embedded stand-ins under the loopback origin, which
 * are answered in-process by the app itself, so tests without a listening server
 * exercise the same adapter code as production.
 */
export const loopbackOrigin = "http://loopback.kannt.internal";

export type HttpClient = {
  fetch(request: Request): Promise<Response>;
  attachLoopback(handler: (request: Request) => Promise<Response> | Response): void;
};

export function createHttpClient(): HttpClient {
  let loopback: ((request: Request) => Promise<Response> | Response) | undefined;
  return {
    async fetch(request) {
      if (request.url.startsWith(`${loopbackOrigin}/`)) {
        if (!loopback) throw new Error("The loopback handler is not attached yet.");
        return loopback(request);
      }
      return fetch(request, { signal: request.signal ?? AbortSignal.timeout(10_000) });
    },
    attachLoopback(handler) {
      loopback = handler;
    },
  };
}
