import { treaty } from "@elysiajs/eden";
import type { App } from "../../bff/app";
import { withPeerAddress } from "../../bff/platform/client-address";
import type { ErrorCode } from "../../bff/platform/errors";

/**
 * The app's typed client for tests: Eden Treaty on the app instance. A call goes through
 * `app.handle` as any request does, and its answer is typed by the route's own schema, so
 * a test reads `data.userInfo.subscriptionStatus` with no cast, and a changed route is a
 * type error in the tests that call it. Raw `app.handle` stays for what a client cannot
 * send: malformed bodies, missing headers, the gateway's signed bytes.
 */
export function apiOf(app: App, peerAddress?: string) {
  // Sent to http://localhost, as the tests' raw requests are (Eden's own stand-in host would
  // show in every link the app builds from the request). Dates stay the ISO strings the
  // schemas declare, as the islands' client keeps them. `peerAddress`: the socket peer the
  // server sees (loopback otherwise), for the limits counted per address.
  const fetcher = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    return app.handle(peerAddress === undefined ? request : withPeerAddress(request, peerAddress));
  };
  return treaty<App>("http://localhost", {
    parseDate: false,
    // Eden types its fetcher as Bun's fetch, which also carries `preconnect`; none is needed.
    fetcher: Object.assign(fetcher, { preconnect: fetch.preconnect }),
  }).api;
}

export type Api = ReturnType<typeof apiOf>;

/** What a customer's cabinet call carries: its identity in the body, as the spec's calls do. */
export const identityOf = (customer: { uid: string; email: string }) => ({
  uid: customer.uid,
  email: customer.email,
});

/** A customer's session, as the options of a call. */
export const sessionOf = (customer: { cookie: string }) => ({ headers: { cookie: customer.cookie } });

/** A staff member's access token, as the options of a call. */
export const staffOf = (accessToken: string) => ({ headers: { authorization: `Bearer ${accessToken}` } });

type Answer = { data: unknown; error: { status: unknown; value: unknown } | null };

/**
 * A 2xx answer's body. A hook that may answer early (the demo routes' refusal outside demo
 * mode) adds `Response` to a route's inferred answer; Eden has parsed it by then, so it is
 * no body a test reads.
 */
export type DataOf<Call extends Answer> = Exclude<NonNullable<Call["data"]>, Response>;

/** The body of a 2xx answer; any other answer fails the test, naming its status and body. */
export async function dataOf<Call extends Answer>(call: Promise<Call>): Promise<DataOf<Call>> {
  const answer = await call;
  if (answer.error)
    throw new Error(`expected 2xx, got ${answer.error.status}: ${JSON.stringify(answer.error.value)}`);
  return answer.data as DataOf<Call>;
}

/** A refusal as every route sends it (DESIGN §9): its status, domain code and worded message. */
export type Refusal = { status: number; code: ErrorCode; message: string };

/** The refusal of a call expected to be refused; a 2xx answer fails the test. */
export async function refusalOf(call: Promise<Answer>): Promise<Refusal> {
  const answer = await call;
  if (!answer.error) throw new Error(`expected a refusal, got 2xx: ${JSON.stringify(answer.data)}`);
  const body = answer.error.value as { error?: Omit<Refusal, "status"> } | undefined;
  if (!body?.error) throw new Error(`refusal without an error body: ${JSON.stringify(answer.error.value)}`);
  return { status: Number(answer.error.status), ...body.error };
}
