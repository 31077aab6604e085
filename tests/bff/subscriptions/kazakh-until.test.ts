import { describe, expect, test } from "vitest";
import { signCancelToken } from "../../../bff/modules/subscriptions/cancel-token";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { kazakhMonthsDative } from "../../../core/date-time";
import { makeTestApp, postJson } from "../../helpers/app";
import { fixture } from "../../helpers/customers";

// Kazakh puts a date before "дейін" (until) in the dative: "желтоқсанға дейін", never
// "желтоқсан дейін". The server's own sentences follow the same rule as the cabinet's.

const { app, context } = await makeTestApp();

describe("a cancel link of an already cancelled subscription, in Kazakh", () => {
  test("says until when access runs with the month in the dative", async () => {
    const { userId } = await fixture(app, { email: "kk.until@example.com", status: "CANCELED" });
    const token = signCancelToken(context.config.jwtSecret, userId, context.clock.now());
    const response = await app.handle(
      withPeerAddress(
        postJson("/api/subscriptions/cancel-link/cancel", { token }, { cookie: "i18next=kk" }),
        "198.51.100.7",
      ),
    );
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as { error: { message: string } };
    const month = new RegExp(`\\d{4} ж\\. \\d{1,2} (${kazakhMonthsDative.join("|")}) дейін`);
    expect(error.message).toMatch(month);
  });
});
