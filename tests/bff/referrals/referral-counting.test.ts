import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, referralCodeOf, type SignedIn, signIn } from "../../helpers/customers";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { cards, ledger, order, passDays, payWithCard } from "../../helpers/payments";

const { app, context } = await makeTestApp();
const api = apiOf(app);

const discountOf = async (customer: SignedIn) =>
  (await dataOf(api.shop.getShop.post(identityOf(customer), sessionOf(customer)))).referralDiscount;

const inviteesOf = async (customer: SignedIn) =>
  (await dataOf(api.profile.referrals.post(identityOf(customer), sessionOf(customer)))).invitees;

const userIdOf = async (email: string) =>
  (await context.database.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [email]))?.id ?? 0;

describe("an invitee counts toward the inviter's discount", () => {
  test("four puppets that only paid the trial give nothing, and the inviter's renewal is charged in full", async () => {
    const inviter = await signIn(app, "puppeteer@example.com", { period: 1 });
    const code = await referralCodeOf(app, inviter);
    await payWithCard(app, (await order(app, inviter, 12, 1)).invoiceId, cards.success);
    for (let index = 0; index < 4; index++) {
      const puppet = await signIn(app, `puppet${index}@example.com`, { referralCode: code });
      await payWithCard(app, (await order(app, puppet, 1, 30)).invoiceId, cards.success);
    }
    expect(await discountOf(inviter)).toBe(0);
    const invitees = await inviteesOf(inviter);
    expect(invitees).toHaveLength(4);
    expect(invitees.every((invitee) => !invitee.counts && invitee.reason === "trial-only")).toBe(true);
    // Masked: enough to recognise a friend, not their address.
    expect(invitees[0]?.email).toMatch(/^pu•••@example\.com$/);

    await passDays(app, 1.5);
    const charges = (await ledger(app, `customer-${await userIdOf(inviter.email)}`)).filter((entry) =>
      entry.invoiceId.startsWith("renewal-"),
    );
    expect(charges.map((entry) => entry.amount)).toEqual([1080]);
  });

  test("a friend who paid more than the trial counts while ACTIVE, not once canceled", async () => {
    const inviter = await signIn(app, "fair-inviter@example.com");
    const code = await referralCodeOf(app, inviter);
    const friend = await signIn(app, "paying-friend@example.com", { referralCode: code, period: 1 });
    await payWithCard(app, (await order(app, friend, 1, 1)).invoiceId, cards.success);
    expect((await inviteesOf(inviter))[0]).toMatchObject({ counts: false, reason: "trial-only" });
    await passDays(app, 1.5);
    expect(await discountOf(inviter)).toBe(0.25);
    expect((await inviteesOf(inviter))[0]).toMatchObject({ counts: true, reason: "counts" });

    await api.subscriptions.cancel.post(identityOf(friend), sessionOf(friend));
    expect(await discountOf(inviter)).toBe(0);
    expect((await inviteesOf(inviter))[0]).toMatchObject({ counts: false, reason: "not-active" });
  });

  test("a friend who paid with the inviter's own card never counts", async () => {
    const inviter = await fixture(app, { email: "card-owner@example.com", status: "ACTIVE" });
    const inviterSession = await signIn(app, "card-owner@example.com");
    const code = await referralCodeOf(app, inviterSession);
    const friend = await fixture(app, {
      email: "card-borrower@example.com",
      status: "ACTIVE",
      referralCode: code,
    });
    expect(await discountOf(inviterSession)).toBe(0.25);
    // Both payments made with one card (as the gateway describes it: first six, last four, expiry).
    for (const userId of [inviter.userId, friend.userId])
      await context.database.run(
        "UPDATE payments SET card_fingerprint = '424242|4242|12/29' WHERE user_id = ?",
        [userId],
      );
    expect(await discountOf(inviterSession)).toBe(0);
    expect((await inviteesOf(inviterSession))[0]).toMatchObject({ counts: false, reason: "inviters-card" });
  });

  test("the panel's invitee list says who counts and why", async () => {
    const admin = await makeOperator(context, "referral.admin", "admin");
    const { accessToken } = await tokensFor(app, admin.username, admin.password);
    const inviter = await signIn(app, "panel-inviter@example.com");
    const code = await referralCodeOf(app, inviter);
    await fixture(app, { email: "counted@example.com", status: "ACTIVE", referralCode: code });
    await fixture(app, {
      email: "trial-taker@example.com",
      status: "ACTIVE",
      referralCode: code,
      paid: "trial",
    });
    const body = await dataOf(
      api.panel.invitations.getInviteesByInviterId.post(
        {},
        {
          ...staffOf(accessToken),
          query: {
            userId: await userIdOf(inviter.email),
            size: 10,
            page: 0,
            sortBy: "created",
            sortDirection: "DESC",
          },
        },
      ),
    );
    expect(body.invitations.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          inviteeEmail: "counted@example.com",
          countsForDiscount: true,
          discountReason: "counts",
        }),
        expect.objectContaining({
          inviteeEmail: "trial-taker@example.com",
          countsForDiscount: false,
          discountReason: "trial-only",
        }),
      ]),
    );
  });
});
