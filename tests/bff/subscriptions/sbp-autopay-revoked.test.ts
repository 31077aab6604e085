import { describe, expect, test } from "vitest";
import { translator } from "../../../core/i18n";
import type { Language } from "../../../core/languages";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { order, passDays } from "../../helpers/payments";
import { renewalCharges, sandboxOf, sbpAutopayCustomer, sbpNotification } from "../../helpers/sbp";

// DESIGN §6 and §13(b): the payer may revoke or close the SBP autopay binding in their bank's
// app; the charge's Fail then says 6001 (the gateway also says 6010 or 6011). The saved
// method is gone: its token is forgotten as a card removal forgets a card, renewals stop
// without dunning, access runs to the end of the paid period, coming back is a payment at
// the plan's price (no second trial), and the customer is told in their language.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const subscriptionOf = async ({ context }: TestApp, userId: number) =>
  context.database.get<{
    status: string;
    next_charge_at: number | null;
    dunning_attempts: number;
    card_token: string | null;
    card_removed_by: string | null;
  }>(
    "SELECT status, next_charge_at, dunning_attempts, card_token, card_removed_by FROM subscriptions WHERE user_id = ?",
    [userId],
  );

const tokensHeld = async ({ context }: TestApp, userId: number) =>
  (
    await context.database.get<{ count: number }>(
      `SELECT (SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL)
         + (SELECT COUNT(*) FROM payments WHERE user_id = ? AND card_token IS NOT NULL) AS count`,
      [userId, userId],
    )
  )?.count;

const mailsOf = async ({ app }: TestApp, email: string) =>
  (await dataOf(apiOf(app).dev.mail.get({ query: { to: email } }))).reverse();

const cases: { language: Language; code: number }[] = [
  { language: "ru", code: 6001 },
  { language: "en", code: 6010 },
  { language: "zh", code: 6011 },
];

describe("a renewal whose SBP binding the payer's bank ended", () => {
  test.each(cases)(
    "Fail $code: the method is forgotten, renewals stop without dunning, told in $language",
    async ({ language, code }) => {
      const world = await makeTestApp();
      const sandbox = sandboxOf(world);
      const { customer, userId, accountId } = await sbpAutopayCustomer(
        world,
        `revoked-${code}@example.com`,
        "revoked",
        {
          language,
        },
      );
      // The bank decides once the pass is over (else its Fail could land before the pass's
      // own end, which expires what it finds lapsed). The sandbox's bank says 6001; the
      // other codes are sent first, as the gateway would.
      const release = sandbox.sbp.holdDecisions();
      expect(await passDays(world.app, 1.5)).toMatchObject({ charged: 1, pending: 1, declined: 0 });
      const [charge] = await renewalCharges(world, accountId);
      if (!charge) throw new Error("no renewal charge at the bank");
      if (code !== 6001)
        expect(await sbpNotification(world, "fail", { ...charge, accountId }, code)).toEqual({
          status: 200,
          code: 0,
        });
      release();
      await sandbox.sbp.settled();

      const renewals = await world.context.database.all<{ status: string; decline_reason_code: number }>(
        "SELECT status, decline_reason_code FROM payments WHERE user_id = ? AND kind = 'renewal'",
        [userId],
      );
      expect(renewals).toEqual([{ status: "declined", decline_reason_code: code }]);
      expect(await subscriptionOf(world, userId)).toEqual({
        status: "CANCELED",
        next_charge_at: null,
        dunning_attempts: 0,
        card_token: null,
        card_removed_by: "bank",
      });
      expect(await tokensHeld(world, userId)).toBe(0);

      const t = translator(language);
      const mails = await mailsOf(world, customer.email);
      expect(mails.map((mail) => mail.kind)).toEqual([
        "trial_started",
        "renewal_notice",
        "sbp_autopay_canceled",
      ]);
      const told = mails.at(-1);
      expect(told).toMatchObject({ language, subject: t("mail.sbp_autopay_canceled.subject") });
      // The renewal fell due at the end of the paid period: there is no access left to keep.
      for (const part of ["intro", "accessEnded", "payAgain"] as const)
        expect(told?.text).toContain(t(`mail.sbp_autopay_canceled.${part}`));

      const api = apiOf(world.app);
      const profile = await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)));
      expect(profile.card).toMatchObject({
        isSaved: false,
        removedBy: "bank",
        removedAt: expect.any(String),
      });
      expect(profile.userInfo).toMatchObject({ subscriptionStatus: "CANCELED", subscriptionIsActive: false });
      const resumed = await refusalOf(
        api.subscriptions.resume.post({ email: customer.email }, sessionOf(customer)),
      );
      expect(resumed).toMatchObject({ status: 409, code: "no_card_to_renew_with" });

      // Nothing is charged again; the period ends as after a card removal, and told once.
      await passDays(world.app, 3);
      expect(await renewalCharges(world, accountId)).toHaveLength(1);
      expect((await subscriptionOf(world, userId))?.status).toBe("EXPIRED");
      expect((await mailsOf(world, customer.email)).map((mail) => mail.kind)).toEqual([
        "trial_started",
        "renewal_notice",
        "sbp_autopay_canceled",
        "subscription_ended",
      ]);
      // Coming back is a payment at the plan's price: the trial was had.
      expect(await order(world.app, customer, 1, 1)).toMatchObject({ trial: false, amount: 150 });
    },
  );

  test("the sandbox's own Fail 6001 after a 6010 already recorded changes nothing more", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, accountId } = await sbpAutopayCustomer(world, "revoked-twice@example.com", "revoked");
    const release = sandbox.sbp.holdDecisions();
    await passDays(world.app, 1.5);
    const [charge] = await renewalCharges(world, accountId);
    if (!charge) throw new Error("no renewal charge at the bank");
    await sbpNotification(world, "fail", { ...charge, accountId }, 6010);
    await sbpNotification(world, "fail", { ...charge, accountId }, 6010);
    release();
    await sandbox.sbp.settled();
    const kinds = (await mailsOf(world, customer.email)).map((mail) => mail.kind);
    expect(kinds.filter((kind) => kind === "sbp_autopay_canceled")).toHaveLength(1);
    expect(kinds).not.toContain("payment_failed");
  });
});
