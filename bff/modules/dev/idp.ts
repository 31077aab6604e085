import { t } from "elysia";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";
import { errorResponse } from "../../platform/schemas";
import { demoAvatarUrl, demoUid, requireDemo } from "./demo-identity";

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The demo identity provider (demo mode only): issues tokens that /api/register
 * verifies like Google's ID tokens (JWKS) or Yandex's (the info endpoint).
 */
export function demoIdentityModule(context: Pick<AppContext, "config" | "identity">) {
  return demoOnly(context, "/dev/idp")
    .post(
      "/token",
      async ({ body }) => {
        const demo = requireDemo(context);
        const providerId = body.provider ?? "google.com";
        const email = body.email.trim();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          throw new AppError("invalid_demo_email");
        }
        const uid = demoUid(providerId, email);
        const photoURL = demoAvatarUrl(email);
        const credential =
          providerId === "yandex"
            ? await demo.signYandexToken({ uid, email, name: body.name, clientId: body.clientId })
            : await demo.signGoogleIdToken({
                uid,
                email,
                name: body.name,
                picture: photoURL,
                audience: body.clientId,
                nonce: body.nonce,
              });
        return { credential, uid, email, photoURL, providerId };
      },
      {
        body: t.Object({
          email: t.String({ maxLength: 320 }),
          name: t.Optional(t.String({ maxLength: 200 })),
          provider: t.Optional(t.Union([t.Literal("google.com"), t.Literal("yandex")])),
          clientId: t.Optional(t.String({ maxLength: 200 })),
          // Google-style tokens carry the nonce the sign-in page started with; Yandex tokens ignore it.
          nonce: t.Optional(t.String({ maxLength: 256 })),
        }),
        response: {
          200: t.Object({
            credential: t.String(),
            uid: t.String(),
            email: t.String(),
            photoURL: t.String(),
            providerId: t.String(),
          }),
          400: errorResponse,
        },
        detail: { summary: "DEMO: issue a sign-in token that /api/register accepts" },
      },
    )
    .get("/jwks", () => requireDemo(context).publicJwks, {
      detail: { summary: "DEMO: the provider's public keys" },
    })
    .get(
      "/yandex/info",
      async ({ headers, status }) => {
        const token = headers.authorization?.replace(/^(OAuth|Bearer)\s+/i, "") ?? "";
        const info = token ? await requireDemo(context).yandexInfo(token) : undefined;
        return info ?? status(401, { error: "invalid_token", error_description: "The token is not valid." });
      },
      { detail: { summary: "DEMO: Yandex-compatible user info for a demo Yandex token" } },
    )
    .get(
      "/avatar",
      ({ query }) =>
        new Response(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="hsl(${query.hue ?? 160} 55% 45%)"/><text x="32" y="42" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#fff">${escapeXml(query.letter ?? "?").slice(0, 8)}</text></svg>`,
          { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } },
        ),
      {
        query: t.Object({
          letter: t.Optional(t.String({ maxLength: 4 })),
          hue: t.Optional(t.Numeric({ minimum: 0, maximum: 360 })),
        }),
        detail: { summary: "DEMO: a generated avatar" },
      },
    );
}
