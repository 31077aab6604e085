import { t } from "elysia";

export const registerBody = t.Object({
  uid: t.String({ minLength: 1, maxLength: 256 }),
  email: t.String({ minLength: 3, maxLength: 320 }),
  photoURL: t.Optional(t.Nullable(t.String({ maxLength: 2048 }))),
  providerId: t.String({ maxLength: 32 }),
  referralCode: t.Optional(t.Nullable(t.String({ maxLength: 128 }))),
  // Ranges are checked by the service so the message can say what is allowed. A number
  // written as text is taken too: the spec's client keeps both in browser storage (§3).
  period: t.Optional(t.Numeric()),
  tariff: t.Optional(t.Numeric()),
  prepaidToken: t.Optional(t.Nullable(t.String({ maxLength: 256 }))),
  credential: t.Optional(t.String({ maxLength: 16_384 })),
  // The nonce the page started Google's sign-in with; must equal the ID token's claim.
  nonce: t.Optional(t.String({ maxLength: 256 })),
});

export const registerResponse = t.Object({
  success: t.Boolean(),
  expirationDate: t.Nullable(t.String()),
  subscriptionIsActive: t.Boolean(),
  prepaid: t.Optional(t.Object({ bound: t.Boolean(), reason: t.Optional(t.String()) })),
});

export const providerSettings = t.Object({
  google: t.Object({ clientId: t.String(), isDemo: t.Boolean() }),
  yandex: t.Object({
    clientId: t.String(),
    isDemo: t.Boolean(),
    authorizeUrl: t.String(),
    infoUrl: t.String(),
  }),
});
