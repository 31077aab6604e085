import type { createApp } from "../../bff/app";
import { rememberPublicUrl } from "./app";

type App = ReturnType<typeof createApp>;

/**
 * The helpers written for `app.handle` (customers.ts, payments.ts, operators.ts) pointed
 * at a real server process over HTTP, so tests of a process drive the same flows the
 * in-process tests do. Those helpers only call `handle`, which is all this provides.
 */
export function remoteApp(origin: string, publicUrl = `http://localhost:${new URL(origin).port}`): App {
  const handle = (request: Request) => {
    const { pathname, search } = new URL(request.url);
    return fetch(new Request(`${origin}${pathname}${search}`, request));
  };
  const app = { handle } as unknown as App;
  // A server started without PUBLIC_URL has the demo default for its port: its passkeys' origin.
  rememberPublicUrl(app, publicUrl);
  return app;
}
