import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp, postJson, request } from "../../helpers/app";
import { fixture, signIn } from "../../helpers/customers";
import { bearer, makeOperator, tokensFor } from "../../helpers/operators";
import { cards, order, payWithCard } from "../../helpers/payments";

// An id in a path or query is plain decimal: every other spelling a number parser would
// read as the same (or another) id is a bad request, never a look-up.

const { app, context } = await makeTestApp();
const api = apiOf(app);

/** Spellings that Number() reads as `id` but that are not its plain decimal form. */
const otherSpellings = (id: number) => [
  `0x${id.toString(16)}`,
  `${id}e0`,
  `${id / 10}e1`,
  `%20${id}`,
  `${id}%20`,
  `+${id}`,
  `%2B${id}`,
  `0${id}`,
  `${id}.0`,
  `${id}.`,
  `0b${id.toString(2)}`,
  `0o${id.toString(8)}`,
  `%09${id}`,
  `${id}%0A`,
];

describe("ids in paths are plain decimal", () => {
  test("a receipt is found by its id only: any other spelling is a 400", async () => {
    const customer = await signIn(app, "spelled-ids@example.com");
    const options = await order(app, customer, 1, 30);
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
    const history = await dataOf(api.profile.payments.post(identityOf(customer), sessionOf(customer)));
    const id = history.payments[0]?.paymentId ?? 0;
    expect((await api.profile.payments({ id }).receipt.get(sessionOf(customer))).status).toBe(200);
    // Each spelling goes on the wire as written, which is what the route must refuse.
    const receipt = (spelled: string) =>
      app.handle(
        request(`/api/profile/payments/${spelled}/receipt`, { headers: { cookie: customer.cookie } }),
      );
    for (const spelled of [...otherSpellings(id), "0", "-1", "1".repeat(16), "NaN", "Infinity"]) {
      const response = await receipt(spelled);
      expect(response.status, spelled).toBe(400);
      expect(((await response.json()) as { success: boolean }).success, spelled).toBe(false);
    }
  });

  test("the panel's staff calls take the operator's id only in plain decimal", async () => {
    const boss = await makeOperator(context, "ids.boss", "admin");
    const target = await makeOperator(context, "ids.target", "support");
    const { accessToken } = await tokensFor(app, boss.username, boss.password);
    const asBoss = bearer(accessToken);
    const staff = await dataOf(api.panel.operators.get(staffOf(accessToken)));
    const id = staff.operators.find((member) => member.username === target.username)?.id ?? 0;
    for (const action of ["disable", "role", "resetPassword", "enable"]) {
      for (const spelled of otherSpellings(id)) {
        const response = await app.handle(
          postJson(
            `/api/panel/operators/${spelled}/${action}`,
            action === "role" ? { role: "admin" } : {},
            asBoss,
          ),
        );
        expect(response.status, `${action} ${spelled}`).toBe(400);
      }
    }
    const after = await dataOf(api.panel.operators.get(staffOf(accessToken)));
    expect(after.operators.find((member) => member.id === id)).toMatchObject({
      role: "support",
      isDisabled: false,
    });
    expect((await api.panel.operators({ id }).disable.post({}, staffOf(accessToken))).status).toBe(200);
  });

  test("the panel's customer ids in queries too", async () => {
    const boss = await makeOperator(context, "ids.reader", "admin");
    const { accessToken } = await tokensFor(app, boss.username, boss.password);
    const { userId } = await fixture(app, { email: "queried-id@example.com", status: "ACTIVE" });
    const asBoss = staffOf(accessToken);
    expect((await api.panel.users.getUserById.post({}, { ...asBoss, query: { id: userId } })).status).toBe(
      200,
    );
    const ask = (path: string) => app.handle(request(path, { method: "POST", ...asBoss }));
    for (const spelled of otherSpellings(userId)) {
      expect((await ask(`/api/panel/users/getUserById?id=${spelled}`)).status, spelled).toBe(400);
      expect((await ask(`/api/panel/checks?userId=${spelled}`)).status, spelled).toBe(400);
      expect((await ask(`/api/panel/logs?userId=${spelled}`)).status, spelled).toBe(400);
    }
  });
});
