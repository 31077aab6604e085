import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { type ChallengePurpose, passkeys, webauthnChallenges } from "../../../../db/queries/second-factor";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { randomToken } from "../../../platform/random";
import { challengeLifetimeMs, maxPasskeys } from "./factor-rules";
import { relyingParty } from "./relying-party";

type Services = Pick<AppContext, "database" | "config">;

/** A challenge kept for one ceremony of `purpose`, 60 s long; expired ones are swept as new ones come. */
async function keepChallenge(
  { database }: Services,
  challenge: string,
  purpose: ChallengePurpose,
  operatorId: number | null,
  now: number,
) {
  const id = randomToken(18);
  await webauthnChallenges.deleteExpired(database, now);
  await webauthnChallenges.insert(database, {
    id,
    challenge,
    purpose,
    operator_id: operatorId,
    expires_at: now + challengeLifetimeMs,
  });
  return id;
}

/**
 * Takes the challenge out for this ceremony: a second use of it (a replayed answer, a
 * parallel one) finds nothing, and so does one past its 60 s or of another purpose or
 * operator than it was made for (`operatorId` undefined: whoever it was made for).
 */
async function takeChallenge(
  { database }: Services,
  challengeId: string,
  purpose: ChallengePurpose,
  operatorId: number | null | undefined,
  now: number,
) {
  const row = await webauthnChallenges.take(database, challengeId);
  if (
    !row ||
    row.expires_at <= now ||
    row.purpose !== purpose ||
    (operatorId !== undefined && row.operator_id !== operatorId)
  )
    throw new AppError("passkey_challenge_invalid");
  return row;
}

const transportsOf = (json: string): AuthenticatorTransport[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? parsed.filter((value): value is AuthenticatorTransport => typeof value === "string")
      : [];
  } catch {
    return [];
  }
};

/** Options for adding a passkey: a discoverable credential that verifies its user, none already added. */
export async function registrationOptions(
  services: Services,
  operator: { id: number; username: string },
  now: number,
) {
  const party = relyingParty(services.config);
  const existing = await passkeys.ofOperator(services.database, operator.id);
  if (existing.length >= maxPasskeys) throw new AppError("too_many_passkeys", { limit: maxPasskeys });
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: operator.username,
    userID: new TextEncoder().encode(`operator:${operator.id}`),
    timeout: challengeLifetimeMs,
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credential_id,
      transports: transportsOf(passkey.transports),
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const challengeId = await keepChallenge(services, options.challenge, "registration", operator.id, now);
  return { challengeId, options };
}

export const passkeyNameOf = (name: string) => {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 64) throw new AppError("passkey_name_invalid");
  return trimmed;
};

/**
 * Verifies the browser's answer to a registration challenge and keeps the passkey: its
 * origin and RP ID must be ours, its user verified. Runs inside the caller's transaction.
 */
export async function addPasskey(
  services: Services,
  operatorId: number,
  form: { challengeId: string; name: string; credential: RegistrationResponseJSON },
  now: number,
) {
  const name = passkeyNameOf(form.name);
  const party = relyingParty(services.config);
  const { challenge } = await takeChallenge(services, form.challengeId, "registration", operatorId, now);
  const verification = await verifyRegistrationResponse({
    response: form.credential,
    expectedChallenge: challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified) throw new AppError("passkey_not_accepted");
  const { credential } = verification.registrationInfo;
  if (await passkeys.byCredentialId(services.database, credential.id))
    throw new AppError("passkey_already_added");
  if ((await passkeys.ofOperator(services.database, operatorId)).length >= maxPasskeys)
    throw new AppError("too_many_passkeys", { limit: maxPasskeys });
  const id = await passkeys.insert(
    services.database,
    {
      operatorId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? form.credential.response.transports ?? []),
      name,
    },
    now,
  );
  return { id, name, createdAt: now, lastUsedAt: null };
}

/**
 * Options for a passkey assertion. For a known operator (the second step of a sign-in, or
 * a check inside one) only their passkeys are offered; without one (a passkey alone), the
 * browser offers whichever discoverable passkey it holds for this site.
 */
export async function assertionOptions(
  services: Services,
  purpose: "sign-in" | "check",
  operatorId: number | null,
  now: number,
) {
  const allowed = operatorId === null ? [] : await passkeys.ofOperator(services.database, operatorId);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(services.config).id,
    timeout: challengeLifetimeMs,
    userVerification: "required",
    allowCredentials: allowed.map((passkey) => ({
      id: passkey.credential_id,
      transports: transportsOf(passkey.transports),
    })),
  });
  const challengeId = await keepChallenge(services, options.challenge, purpose, operatorId, now);
  return { challengeId, options };
}

/** What failed in an assertion, for the audit log: the passkey's owner when it is known. */
export class PasskeyRefusal extends AppError {
  constructor(
    code: "passkey_not_accepted" | "passkey_unknown" | "passkey_challenge_invalid",
    readonly operatorId: number | null,
  ) {
    super(code);
  }
}

/**
 * Verifies an assertion against its challenge and the stored passkey, and answers whose
 * passkey it was. User verification is required; the RP ID and origin must be ours; a
 * signature counter that does not move past the stored one fails (a cloned authenticator),
 * except that a passkey reporting 0 (a synced one, which keeps no counter) always may.
 * The counter is moved on only if no other assertion moved it meanwhile. A challenge made
 * for an operator (`expectedOperatorId`, or the one a sign-in's challenge names) takes
 * only their passkeys.
 */
export async function verifyAssertion(
  services: Services,
  form: { challengeId: string; credential: AuthenticationResponseJSON },
  purpose: "sign-in" | "check",
  expectedOperatorId: number | undefined,
  now: number,
): Promise<number> {
  const taken = await takeChallenge(services, form.challengeId, purpose, expectedOperatorId, now).catch(
    () => {
      throw new PasskeyRefusal("passkey_challenge_invalid", expectedOperatorId ?? null);
    },
  );
  const challenge = taken.challenge;
  const operatorId = taken.operator_id;
  const passkey = await passkeys.byCredentialId(services.database, form.credential.id);
  if (!passkey) throw new PasskeyRefusal("passkey_unknown", operatorId);
  if (operatorId !== null && passkey.operator_id !== operatorId)
    throw new PasskeyRefusal("passkey_not_accepted", operatorId);
  const party = relyingParty(services.config);
  const verification = await verifyAuthenticationResponse({
    response: form.credential,
    expectedChallenge: challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    requireUserVerification: true,
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
      counter: passkey.counter,
      transports: transportsOf(passkey.transports),
    },
  }).catch(() => undefined);
  if (!verification?.verified) throw new PasskeyRefusal("passkey_not_accepted", passkey.operator_id);
  const moved = await passkeys.recordUse(
    services.database,
    passkey.id,
    verification.authenticationInfo.newCounter,
    passkey.counter,
    now,
  );
  if (moved.changes !== 1) throw new PasskeyRefusal("passkey_not_accepted", passkey.operator_id);
  return passkey.operator_id;
}
