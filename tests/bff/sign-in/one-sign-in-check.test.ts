import { afterEach, describe, expect, test, vi } from "vitest";
import { operators } from "../../../db/queries/operators";
import { sessions } from "../../../db/queries/sessions";
import { makeTestApp, postJson, request } from "../../helpers/app";
import { asCustomer, signIn } from "../../helpers/customers";
import { bearer, makeOperator, tokensFor } from "../../helpers/operators";

// Who is calling is looked up once per call: the panel asks before the body is validated
// (so a call without a token is 401 whatever its body) and its macro reuses that answer.

const { app, context, clock } = await makeTestApp();
const admin = await makeOperator(context, "once.admin", "admin");
const support = await makeOperator(context, "once.support", "support");
const adminToken = (await tokensFor(app, admin.username, admin.password)).accessToken;
const supportToken = (await tokensFor(app, support.username, support.password)).accessToken;
const customer = await signIn(app, "once@example.com");

afterEach(() => {
  vi.restoreAllMocks();
});

/** How many times `query` ran while `app` answered `call`, and the answer's status. */
async function lookUpsDuring(query: "operators" | "sessions", call: Request) {
  const spy = query === "operators" ? vi.spyOn(operators, "byId") : vi.spyOn(sessions, "byId");
  const response = await app.handle(call);
  const count = spy.mock.calls.length;
  spy.mockRestore();
  return { status: response.status, count };
}

const panelCall = (method: "GET" | "POST", path: string, token?: string, body?: unknown) =>
  request(path, {
    method,
    headers: { ...(token ? bearer(token) : {}), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("the panel looks the operator up once per call", () => {
  const calls: [method: "GET" | "POST", path: string, body?: unknown][] = [
    ["GET", "/api/panel/clock"],
    ["GET", "/api/panel/dashboard"],
    ["POST", "/api/panel/users/search?page=0&size=10&emailPart=once"],
    ["GET", "/api/panel/operators"],
    ["GET", "/api/panel/nodes"],
    ["GET", "/api/panel/promos/promoTypes"],
    ["POST", "/api/panel/refund/preview", { email: "once@example.com", uid: customer.uid }],
  ];
  test.each(calls)("%s %s", async (method, path, body) => {
    expect(await lookUpsDuring("operators", panelCall(method, path, adminToken, body))).toEqual({
      status: 200,
      count: 1,
    });
  });

  test("a support operator on an administrators' call is refused after one look-up", async () => {
    expect(await lookUpsDuring("operators", panelCall("GET", "/api/panel/audit", supportToken))).toEqual({
      status: 403,
      count: 1,
    });
  });

  test("a bad body from a signed-in operator is a 400 after one look-up", async () => {
    const call = panelCall("POST", "/api/panel/refund", adminToken, { email: 42 });
    expect(await lookUpsDuring("operators", call)).toEqual({ status: 400, count: 1 });
  });
});

describe("a panel call without a token is 401 before its body is read", () => {
  test("with no body at all", async () => {
    const call = panelCall("POST", "/api/panel/refund");
    expect(await lookUpsDuring("operators", call)).toEqual({ status: 401, count: 0 });
    const again = panelCall("POST", "/api/panel/users/getUserById");
    expect(await lookUpsDuring("operators", again)).toEqual({ status: 401, count: 0 });
  });

  test("with a body that would fail validation", async () => {
    const call = panelCall("POST", "/api/panel/refund", undefined, { email: 42, paymentIds: "all" });
    expect(await lookUpsDuring("operators", call)).toEqual({ status: 401, count: 0 });
  });
});

describe("a customer's session is read once per call", () => {
  const calls: [method: "GET" | "POST", path: string][] = [
    ["POST", "/api/profile"],
    ["POST", "/api/shop/getShop"],
    ["POST", "/api/profile/referrals"],
    ["POST", "/api/profile/payments"],
    ["GET", "/api/profile/referralQr.png"],
  ];
  test.each(calls)("%s %s", async (method, path) => {
    // Past the sign-in cache's second, so the call has to read the session itself.
    clock.advance(1001);
    const call =
      method === "GET" ? request(path, { headers: { cookie: customer.cookie } }) : asCustomer(customer, path);
    expect(await lookUpsDuring("sessions", call)).toEqual({ status: 200, count: 1 });
  });

  test("an order is authenticated once", async () => {
    clock.advance(1001);
    const call = postJson(
      "/api/shop/order",
      { uid: customer.uid, email: customer.email, tariff: 1, period: 30 },
      { cookie: customer.cookie },
    );
    expect(await lookUpsDuring("sessions", call)).toEqual({ status: 200, count: 1 });
  });
});
