import { t } from "elysia";

/** A base64url field of a WebAuthn answer; 64 KB bodies are refused before this anyway. */
const base64url = (maxLength = 8192) =>
  t.String({ minLength: 1, maxLength, pattern: "^[A-Za-z0-9_-]+={0,2}$" });

const extensionResults = t.Object({}, { additionalProperties: true });
const attachment = t.Optional(t.Union([t.Literal("platform"), t.Literal("cross-platform")]));

/** What `startAuthentication` of @simplewebauthn/browser answers (AuthenticationResponseJSON). */
export const assertionSchema = t.Object({
  id: base64url(1024),
  rawId: base64url(1024),
  response: t.Object({
    clientDataJSON: base64url(),
    authenticatorData: base64url(),
    signature: base64url(),
    userHandle: t.Optional(base64url(1024)),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
  type: t.Literal("public-key"),
});

/** What `startRegistration` answers (RegistrationResponseJSON). */
export const registrationSchema = t.Object({
  id: base64url(1024),
  rawId: base64url(1024),
  response: t.Object({
    clientDataJSON: base64url(),
    attestationObject: base64url(16_384),
    authenticatorData: t.Optional(base64url(16_384)),
    transports: t.Optional(t.Array(t.String({ maxLength: 32 }), { maxItems: 8 })),
    publicKeyAlgorithm: t.Optional(t.Integer()),
    publicKey: t.Optional(base64url()),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
  type: t.Literal("public-key"),
});

export const challengeIdSchema = t.String({ minLength: 1, maxLength: 64 });
export const ticketSchema = t.String({ minLength: 1, maxLength: 2048 });
export const codeKindSchema = t.Union([t.Literal("totp"), t.Literal("recovery")]);
export const codeSchema = t.String({ minLength: 1, maxLength: 32 });
