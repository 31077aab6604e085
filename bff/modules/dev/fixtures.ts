import { t } from "elysia";
import { devices } from "../../../db/queries/devices";
import { subscriptions } from "../../../db/queries/subscriptions";
import type { AppContext } from "../../platform/context";
import { registerCustomer } from "../customers/register";
import { demoAvatarUrl, demoUid } from "./demo-identity";
import { demoOnly, requireDemo } from "./demo-only";

const day = 24 * 60 * 60 * 1000;

const states = ["NOT_ACTIVE", "ACTIVE", "CANCELED", "CANCELED_OVER", "EXPIRED"] as const;

/**
 * Demo-only fixtures for tests and demonstrations: a customer in a given
 * subscription state, made through the same services the product uses.
 */
export function fixturesModule(context: AppContext) {
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
      database.transaction(() => {
        const subscription = subscriptions.current(database, userId);
        if (!subscription) return;
        if (body.extraDevices) {
          database
            .query("UPDATE subscriptions SET extra_devices = ? WHERE id = ?")
            .run(body.extraDevices, subscription.id);
        }
        const isOver = body.status === "CANCELED_OVER" || body.status === "EXPIRED";
        if (body.status !== "NOT_ACTIVE") {
          subscriptions.activate(
            database,
            subscription.id,
            now - (isOver ? 40 : 5) * day,
            now + (isOver ? -day : 25 * day),
            now,
          );
        }
        if (body.status === "CANCELED" || body.status === "CANCELED_OVER")
          subscriptions.cancel(database, subscription.id, now);
        if (body.status === "EXPIRED") subscriptions.expire(database, subscription.id, now - day, now);
        for (let index = 0; index < (body.devices ?? 0); index++) {
          const isActive = index < (body.devices ?? 0) - (body.inactiveDevices ?? 0);
          const deviceId = `dev-${userId}-${index + 1}`;
          // A fixture asked again for the same customer keeps the devices it already made.
          if (devices.exists(database, userId, deviceId)) continue;
          devices.insert(
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
        }
      })();
      return { uid, email: body.email, providerId, userId };
    },
    {
      body: t.Object({
        email: t.String({ maxLength: 320 }),
        provider: t.Optional(t.Union([t.Literal("google.com"), t.Literal("yandex")])),
        status: t.Union(states.map((state) => t.Literal(state))),
        tariff: t.Optional(t.Union([t.Literal(1), t.Literal(3), t.Literal(6), t.Literal(12)])),
        devices: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
        inactiveDevices: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
        extraDevices: t.Optional(t.Integer({ minimum: 0, maximum: 10 })),
        deviceNames: t.Optional(t.Array(t.String({ maxLength: 100 }))),
        referralCode: t.Optional(t.String({ maxLength: 128 })),
        language: t.Optional(t.Union([t.Literal("ru"), t.Literal("en"), t.Literal("zh"), t.Literal("kk")])),
      }),
      detail: { summary: "DEMO: a customer in a given subscription state (for tests and demos)" },
    },
  );
}
