import { describe, expect, test } from "vitest";
import { inviteeDiscountPercent } from "../../../bff/modules/referrals/referral-standing";
import { translator } from "../../../core/i18n";
import { languages } from "../../../core/languages";
import { referralRuleValues } from "../../../src/lib/referral-rule";

// /promo states the referral rule with the numbers the discount is computed with (DESIGN §13).

const monthlyFriend = {
  inviteeId: 1,
  email: "friend@example.com",
  invitedAt: 0,
  reason: "counts" as const,
  periodMonths: 1,
};

describe("the rule /promo states", () => {
  test("one friend's part and a monthly friend's part of a yearly plan, as the server computes them", () => {
    expect(referralRuleValues("en")).toEqual({ percent: "25%", yearlyShare: "2.1%" });
    expect(referralRuleValues("ru")).toEqual({ percent: "25%", yearlyShare: "2,1%" });
    // The same figure the invitee list and the renewal take off a yearly plan for a monthly friend.
    const server = inviteeDiscountPercent(monthlyFriend, 12);
    expect(server).toBeCloseTo(25 / 12, 1);
    expect(referralRuleValues("en").yearlyShare).toBe(`${server.toFixed(1)}%`);
    expect(inviteeDiscountPercent({ ...monthlyFriend, periodMonths: 12 }, 12)).toBe(25);
  });

  test("every language says the proration, with both figures, and no longer a flat part per friend", () => {
    for (const language of languages) {
      const t = translator(language);
      const values = referralRuleValues(language);
      expect(t("promo.step3", values), language).toContain(values.percent);
      const rule = t("promo.rule", values);
      expect(rule, language).toContain(values.percent);
      expect(rule, language).toContain(values.yearlyShare);
      expect(rule, language).not.toMatch(/\{\{/);
    }
    expect(translator("en")("promo.step3", referralRuleValues("en"))).not.toContain("for every such friend");
  });
});
