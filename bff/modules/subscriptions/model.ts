import { t } from "elysia";

/** A subscription's state (DESIGN §5); an account without a subscription reads NOT_ACTIVE. */
export const subscriptionStatus = t.Union([
  t.Literal("NOT_ACTIVE"),
  t.Literal("ACTIVE"),
  t.Literal("CANCELED"),
  t.Literal("EXPIRED"),
]);

/** What cancel and resume answer, from the cabinet and from the signed cancel link alike. */
export const subscriptionResult = t.Object({
  success: t.Literal(true),
  subscriptionStatus,
  expirationDate: t.Nullable(t.String()),
});

/** The one thing the cancel-link calls take: the token from `{PUBLIC_URL}/cancel?token=…`. */
export const cancelLinkBody = t.Object({
  // No length limit here: an overlong token is an invalid link (401), not a malformed request.
  token: t.String({ description: "The signed token of the cancel link in a renewal notice" }),
});

/** The cancel screen's view of the account a link names: nothing beyond what the screen shows. */
export const cancelLinkAccount = t.Object({
  success: t.Literal(true),
  email: t.String(),
  status: subscriptionStatus,
  subscriptionIsActive: t.Boolean(),
  endDate: t.Nullable(t.String()),
});
