import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { customerAuthenticator } from "../../../bff/modules/session/customer-auth";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { asCustomer, fixture, type SignedIn, signIn } from "../../helpers/customers";
import { startProcess } from "../../helpers/start-process";

/**
 * POST /api/profile is the hottest call there is (DESIGN §10: at least 90% of the Elysia
 * floor's requests/s). These hold the shape of its path, which no answer shows: a slip here
 * (a global hook that takes the whole context, an awaited handler) costs a fifth of the
 * throughput and breaks nothing else.
 */
const { app, context } = await makeTestApp();
let customer: SignedIn;

beforeAll(async () => {
  customer = await signIn(app, "hot.path@example.com");
  await fixture(app, { email: customer.email, status: "ACTIVE", devices: 2 });
});

/** The code Elysia compiled for a route (what runs for each of its requests). */
function compiledRoute(method: string, path: string): string {
  const route = app.routes.find((candidate) => candidate.method === method && candidate.path === path) as
    | { compile?: () => unknown; composed?: unknown }
    | undefined;
  if (!route) throw new Error(`no route ${method} ${path}`);
  return String(route.compile ? route.compile() : route.composed);
}

describe("the cabinet call's path", () => {
  test("Elysia neither parses the cookie jar nor copies every header for it, and does not wait on its handler", () => {
    const source = compiledRoute("POST", "/api/profile");
    // A hook or handler that passes its whole context on makes Elysia prepare everything for every route.
    expect(source).not.toContain("parseCookie");
    expect(source).not.toContain("headers.toJSON()");
    expect(source).not.toContain("getServer()");
    // The session check and the summary are resolved in one awaited step; the handler returns a value.
    expect(source).toContain("let r=handler(c)");
    expect(source.match(/await e\.beforeHandle/g)).toHaveLength(1);
  });

  test("no request hook of the app is waited on: every request, the cabinet's too, passes them without a pause", () => {
    // A hook whose source reads as asynchronous to Elysia (a returned call, the words for
    // waiting) makes Elysia wait on it before routing any request (subscription/index.ts).
    app.compile();
    const general = String((app as unknown as { fetch: unknown }).fetch);
    expect(general).toContain("onRequest[1](c)");
    expect(general).not.toContain("await onRequest");
    expect(general.startsWith("async")).toBe(false);
  });

  test("a session already looked up is answered without a promise, and the same customer each time", async () => {
    const authenticate = customerAuthenticator(context);
    const ask = () =>
      authenticate(
        asCustomer(customer, "/api/profile"),
        { uid: customer.uid, email: customer.email },
        { headers: {} },
      );
    const first = await ask();
    const again = ask();
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(first);
    expect(first.customer.email).toBe(customer.email);
  });

  test("a cached cabinet reads as the first one did, and a write shows at once", async () => {
    const reader = await signIn(app, "hot.path.writes@example.com");
    await fixture(app, { email: reader.email, status: "ACTIVE", devices: 2 });
    const read = async () => {
      const cabinet = apiOf(app).profile.post(identityOf(reader), sessionOf(reader));
      expect((await cabinet).status).toBe(200);
      return dataOf(cabinet);
    };
    const first = await read();
    expect(await read()).toEqual(first);
    expect(first.devices).toHaveLength(2);
    expect(first.userInfo.subscriptionStatus).toBe("ACTIVE");
    await fixture(app, { email: reader.email, status: "CANCELED" });
    expect((await read()).userInfo.subscriptionStatus).toBe("CANCELED");
  });
});

describe("the Elysia floor of bench/profile-throughput.ts", () => {
  let floor: Awaited<ReturnType<typeof startProcess>>;
  beforeAll(async () => {
    floor = await startProcess("bench/servers/elysia-floor.ts");
  });
  afterAll(() => floor.stop());

  const headerNames = (response: Response) =>
    [...response.headers.keys()].filter((name) => name !== "date" && name !== "content-length").sort();
  const shapeOf = (value: unknown): unknown =>
    value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shapeOf(child)]))
      : typeof value;

  test("answers a signed-in call as the product does: the same headers and the cabinet's fields", async () => {
    const ours = await app.handle(asCustomer(customer, "/api/profile"));
    const floors = await fetch(`http://127.0.0.1:${floor.port}/api/profile`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: customer.cookie },
      body: JSON.stringify({ uid: customer.uid, email: customer.email }),
    });
    expect(floors.status).toBe(200);
    expect(headerNames(floors)).toEqual(headerNames(ours));
    for (const name of headerNames(ours)) expect(floors.headers.get(name), name).toBe(ours.headers.get(name));
    expect(shapeOf(await floors.json())).toEqual(shapeOf(await ours.json()));
  });

  test("refuses a call without the session cookie as the product does", async () => {
    const body = JSON.stringify({ uid: customer.uid, email: customer.email });
    const headers = { "content-type": "application/json" };
    const ours = await app.handle(
      new Request("http://localhost/api/profile", { method: "POST", headers, body }),
    );
    const floors = await fetch(`http://127.0.0.1:${floor.port}/api/profile`, {
      method: "POST",
      headers,
      body,
    });
    expect(floors.status).toBe(ours.status);
    expect(await floors.json()).toEqual(await ours.json());
  });
});
