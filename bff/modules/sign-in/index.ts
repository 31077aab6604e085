import { Elysia, t } from "elysia";
import { isoTime } from "../../../core/date-time";
import { hasAccess } from "../../../db/queries/subscriptions";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, errorResponse } from "../../platform/schemas";
import {
  clearedSessionCookieHeader,
  isCrossSite,
  sessionCookieHeader,
  sessionToken,
} from "../session/session-cookie";
import { createSession, deleteSession } from "../session/sessions";
import { providerSettings, registerBody, registerResponse } from "./model";
import { registerCustomer } from "./register";

/** Sign-up/sign-in of customers and their sessions. */
export function signInModule(context: AppContext) {
  return new Elysia({ tags: ["customers"] })
    .post(
      "/register",
      async ({ body, request, set }) => {
        if (isCrossSite(request)) throw new AppError("cross_site_request");
        const { userId, subscription, prepaid } = await registerCustomer(context, {
          ...body,
          language: requestLanguage(request),
          address: context.clientAddress(request),
        });
        const session = await createSession(context.database, userId, context.clock.now());
        set.headers["set-cookie"] = sessionCookieHeader(
          context.config.publicUrl,
          session.token,
          session.expiresAt,
        );
        return {
          success: true,
          expirationDate: isoTime(subscription?.end_date),
          subscriptionIsActive: hasAccess(subscription, context.clock.now()),
          // Only when a prepaidToken was sent: whether the purchase is now this account's, or why not.
          ...(prepaid
            ? { prepaid: prepaid.bound ? { bound: true } : { bound: false, reason: prepaid.reason } }
            : {}),
        };
      },
      {
        body: registerBody,
        response: { 200: registerResponse, ...customerErrors, 503: errorResponse },
        detail: {
          summary: "Sign up or sign in with a provider credential; sets the session cookie",
          description:
            "The spec's body plus `credential` (Google ID token, Yandex OAuth token or demo token). The server verifies it and the body's uid/email must match.",
        },
      },
    )
    .post(
      "/session/logout",
      async ({ request, set }) => {
        // Another site's page must not sign the customer out either (DESIGN §12).
        if (isCrossSite(request)) throw new AppError("cross_site_request");
        const token = sessionToken(request);
        if (token) await deleteSession(context.database, token);
        set.headers["set-cookie"] = clearedSessionCookieHeader();
        return { success: true as const };
      },
      {
        detail: { summary: "End the customer's session" },
        response: { 200: t.Object({ success: t.Literal(true) }), 403: errorResponse },
      },
    )
    .get("/identity/providers", () => context.identity.settings, {
      response: { 200: providerSettings },
      detail: { summary: "Client ids and URLs the sign-in buttons need" },
    });
}
