import { t } from "elysia";
import type { Database } from "../../../db/database";
import { devices } from "../../../db/queries/devices";
import { payments } from "../../../db/queries/payments";
import { type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { newCredential } from "../access/devices/device-credentials";
import { accountIdOf } from "../payments/orders/orders";
import { registerCustomer } from "../sign-in/register";
import { demoAvatarUrl, demoUid, requireDemo } from "./demo-identity";

const day = 24 * 60 * 60 * 1000;

/** The completed first payment behind a fixture's active period. */
async function recordFixturePayment(
  database: Database,
  subscription: SubscriptionRow,
  isTrial: boolean,
  at: number,
) {
  // Asked again for the same customer: the payment is already there.
  if (await payments.byInvoice(database, `fixture-${subscription.id}-first`)) return;
  const payment = await payments.insert(
    database,
    {
      userId: subscription.user_id,
      subscriptionId: subscription.id,
      kind: "first",
      invoiceId: `fixture-${subscription.id}-first`,
      accountId: accountIdOf(subscription.user_id),
      amount: isTrial ? subscription.first_payment : subscription.period_price,
      currency: subscription.currency,
      description: "Kannt: fixture payment",
      tariffMonths: subscription.tariff_months,
      trialDays: subscription.trial_days,
      isTrial,
    },
    at,
  );
  await payments.complete(database, payment.id, `fixture-${payment.id}`, { token: null, lastFour: null }, at);
}

const states = ["NOT_ACTIVE", "ACTIVE", "CANCELED", "CANCELED_OVER", "EXPIRED"] as const;

/** A customer the fixture makes: who, in which state, with which devices. */
export const fixtureBody = t.Object({
  email: t.String({ maxLength: 320 }),
  provider: t.Optional(t.Union([t.Literal("google.com"), t.Literal("yandex")])),
  status: t.UnionEnum(states),
  tariff: t.Optional(t.Union([t.Literal(1), t.Literal(3), t.Literal(6), t.Literal(12)])),
  devices: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
  inactiveDevices: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
  extraDevices: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
  deviceNames: t.Optional(t.Array(t.String({ maxLength: 100 }))),
  referralCode: t.Optional(t.String({ maxLength: 128 })),
  /** What the customer paid for the current period: the plan's price (default) or only the trial. */
  paid: t.Optional(t.Union([t.Literal("full"), t.Literal("trial")])),
  language: t.Optional(t.Union([t.Literal("ru"), t.Literal("en"), t.Literal("zh"), t.Literal("kk")])),
});

/**
 * Demo-only fixtures for tests and demonstrations: a customer in a given
 * subscription state, made through the same services the product uses.
 */
export function fixturesModule(
  context: Pick<AppContext, "database" | "clock" | "config" | "identity" | "payments">,
) {
  const { database, clock } = context;
  return demoOnly(context, "/dev/fixtures").post(
    "/subscription",
    async ({ body }) => {
      const demo = requireDemo(context);
      const providerId = body.provider ?? "google.com";
      const uid = demoUid(providerId, body.email);
      const credential =
        providerId === "yandex"
          ? await demo.signYandexToken({ uid, email: body.email })
          : await demo.signGoogleIdToken({ uid, email: body.email, picture: demoAvatarUrl(body.email) });
      const { userId } = await registerCustomer(context, {
        uid,
        email: body.email,
        providerId,
        credential,
        period: 30,
        tariff: body.tariff ?? 1,
        referralCode: body.referralCode,
        language: body.language ?? "en",
      });
      const now = clock.now();
      // One transaction: the look-ups that keep a repeated call from doubling the payment
      // or the devices must see the rows as they are when it writes.
      await database.transaction(async () => {
        const subscription = await subscriptions.current(database, userId);
        if (!subscription) return;
        if (body.extraDevices)
          await subscriptions.setExtraDevices(database, subscription.id, body.extraDevices);
        const isOver = body.status === "CANCELED_OVER" || body.status === "EXPIRED";
        if (body.status !== "NOT_ACTIVE") {
          const start = now - (isOver ? 40 : 5) * day;
          await subscriptions.activate(
            database,
            subscription.id,
            start,
            now + (isOver ? -day : 25 * day),
            now,
          );
          // A customer who paid for the period (so, as an invitee, counts toward a referral
          // discount), unless asked to be one who only took the trial.
          await recordFixturePayment(database, subscription, body.paid === "trial", start);
        }
        if (body.status === "CANCELED" || body.status === "CANCELED_OVER")
          await subscriptions.cancel(database, subscription.id, now);
        if (body.status === "EXPIRED") await subscriptions.expire(database, subscription.id, now - day, now);
        for (let index = 0; index < (body.devices ?? 0); index++) {
          const isActive = index < (body.devices ?? 0) - (body.inactiveDevices ?? 0);
          const deviceId = `dev-${userId}-${index + 1}`;
          // A fixture asked again for the same customer keeps the devices it already made.
          if (await devices.exists(database, userId, deviceId)) continue;
          const id = await devices.insert(
            database,
            {
              userId,
              deviceId,
              deviceName: body.deviceNames?.[index] ?? `Pixel ${index + 7}`,
              platform: "android",
              isActive,
            },
            now - index * day,
          );
          // A device in use has its credential, as one the cabinet or the app connected.
          if (isActive) await devices.putInUse(database, id, newCredential(), null);
        }
      });
      return { uid, email: body.email, providerId, userId };
    },
    {
      body: fixtureBody,
      detail: { summary: "DEMO: a customer in a given subscription state (for tests and demos)" },
    },
  );
}
