import { describe, expect, test } from "vitest";
import { subscriptions } from "../../../db/queries/subscriptions";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, referralCodeOf, type SignedIn, signIn } from "../../helpers/customers";

const { app, context } = await makeTestApp();
const { database, clock } = context;

const referralCode = (customer: SignedIn) => referralCodeOf(app, customer);

const shop = (customer: SignedIn) =>
  dataOf(apiOf(app).shop.getShop.post(identityOf(customer), sessionOf(customer)));

const inviteesOf = async (inviterEmail: string) =>
  (
    await database.all<{ email: string }>(
      "SELECT u.email FROM invitations i JOIN users u ON u.id = i.invitee_id JOIN users r ON r.id = i.inviter_id WHERE r.email = ? ORDER BY i.id",
      [inviterEmail],
    )
  ).map((row) => row.email);

describe("referral code", () => {
  test("is created once, longer than 10 URL-safe characters, and stays the same", async () => {
    const owner = await signIn(app, "code-owner@example.com");
    const first = await referralCode(owner);
    expect(first).toMatch(/^[A-Za-z0-9_-]{11,}$/);
    expect(await referralCode(owner)).toBe(first);
  });
});

describe("referral discounts", () => {
  test("stack by 25% per invitee with an active subscription, up to exactly 100% and no further", async () => {
    const inviter = await signIn(app, "inviter@example.com");
    const code = await referralCode(inviter);
    expect((await shop(inviter)).discount).toBe(0);
    const expected = [0.25, 0.5, 0.75, 1, 1];
    for (const [index, discount] of expected.entries()) {
      await fixture(app, { email: `friend${index}@example.com`, status: "ACTIVE", referralCode: code });
      const data = await shop(inviter);
      expect(data.discount).toBe(discount);
      // Renewal prices are rounded to whole roubles (DESIGN §5): 112.5 → 113, 37.5 → 38.
      expect(data.monthlyPayment).toBe(Math.round(150 * (1 - discount)));
      expect(data.strikethroughPrice).toBe(150);
    }
    expect(await inviteesOf("inviter@example.com")).toHaveLength(5);
  });

  test("an invitee without an active subscription gives nothing yet", async () => {
    const inviter = await signIn(app, "patient@example.com");
    const code = await referralCode(inviter);
    await signIn(app, "not-paying@example.com", { referralCode: code });
    expect(await inviteesOf("patient@example.com")).toEqual(["not-paying@example.com"]);
    expect((await shop(inviter)).discount).toBe(0);
  });

  test("an invitee whose subscription expires stops counting", async () => {
    const inviter = await signIn(app, "loses-friend@example.com");
    const code = await referralCode(inviter);
    const friend = await fixture(app, { email: "leaving@example.com", status: "ACTIVE", referralCode: code });
    expect((await shop(inviter)).discount).toBe(0.25);
    const subscription = await subscriptions.current(database, friend.userId);
    if (!subscription) throw new Error("fixture has no subscription");
    await subscriptions.expire(database, subscription.id, clock.now(), clock.now());
    expect((await shop(inviter)).discount).toBe(0);
  });

  test("a customer cannot invite themself", async () => {
    const selfish = await signIn(app, "selfish@example.com");
    const code = await referralCode(selfish);
    await signIn(app, "selfish@example.com", { referralCode: code });
    expect(await inviteesOf("selfish@example.com")).toEqual([]);
    expect((await shop(selfish)).discount).toBe(0);
  });

  test("nobody is invited twice: the first inviter keeps the invitee", async () => {
    const first = await signIn(app, "first-inviter@example.com");
    const second = await signIn(app, "second-inviter@example.com");
    await signIn(app, "popular@example.com", { referralCode: await referralCode(first) });
    await signIn(app, "popular@example.com", { referralCode: await referralCode(second) });
    expect(await inviteesOf("first-inviter@example.com")).toEqual(["popular@example.com"]);
    expect(await inviteesOf("second-inviter@example.com")).toEqual([]);
  });

  test("an unknown code signs the customer in and changes nothing", async () => {
    const customer = await signIn(app, "unknown-code@example.com", { referralCode: "NO-SUCH-CODE" });
    expect((await shop(customer)).discount).toBe(0);
  });
});

describe("promo codes at sign-up", () => {
  test("an available operator promo code applies its discount once", async () => {
    await database.run(
      "INSERT INTO promos (promo_code, promo_type, is_available, discount_percent, expiration_date, created_at) VALUES ('SPRING30', 'DISCOUNT', 1, 30, '2999-12-31', 0)",
    );
    const customer = await signIn(app, "promo@example.com", { referralCode: "spring30" });
    expect(await shop(customer)).toMatchObject({ discount: 0.3, monthlyPayment: 105 });
  });

  test("an expired promo code gives nothing", async () => {
    await database.run(
      "INSERT INTO promos (promo_code, promo_type, is_available, discount_percent, expiration_date, created_at) VALUES ('OLDCODE', 'DISCOUNT', 1, 50, '2001-01-01', 0)",
    );
    const customer = await signIn(app, "late@example.com", { referralCode: "OLDCODE" });
    expect((await shop(customer)).discount).toBe(0);
  });
});

describe("invite QR", () => {
  // A PNG, not JSON: read raw, as bytes.
  test("is a 256×256 PNG of the invite link for the signed-in customer only", async () => {
    const owner = await signIn(app, "qr-owner@example.com");
    const response = await app.handle(
      new Request("http://localhost/api/profile/referralQr.png?download=1", {
        headers: { cookie: owner.cookie },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toContain(
      'attachment; filename="kannt-invite-qr.png"',
    );
    const png = new Uint8Array(await response.arrayBuffer());
    const view = new DataView(png.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([256, 256]);
    const anonymous = await app.handle(new Request("http://localhost/api/profile/referralQr.png"));
    expect(anonymous.status).toBe(401);
  });
});
