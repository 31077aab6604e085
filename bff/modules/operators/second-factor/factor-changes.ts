import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { audit, type OperatorRow } from "../../../../db/queries/operators";
import { refreshTokens } from "../../../../db/queries/refresh-tokens";
import {
  hasSecondFactor,
  passkeys,
  recoveryCodes,
  signInChecks,
  totp,
} from "../../../../db/queries/second-factor";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { freshCheckMs, isSecondFactorRequired } from "./factor-rules";
import { addPasskey } from "./passkey-factor";
import { replaceRecoveryCodes } from "./recovery-codes";
import { spendTotpCode } from "./totp-factor";

type Services = Pick<AppContext, "database" | "config">;
/** The signed-in operator making the change, the sign-in they make it from and their address. */
export type Holder = Pick<OperatorRow, "id" | "username" | "role"> & { familyId: string; address: string };

const record = (services: Services, holder: Holder, action: string, details: unknown, now: number) =>
  audit.record(services.database, { operatorId: holder.id, action, details, ipAddress: holder.address }, now);

/**
 * After a factor is added: the first one also brings recovery codes (answered once) and
 * ends the operator's other sign-ins, which were made with a password alone.
 */
async function afterFactorAdded(services: Services, holder: Holder, hadFactor: boolean, now: number) {
  if (hadFactor) return undefined;
  await refreshTokens.revokeOperatorExcept(services.database, holder.id, holder.familyId, now);
  if ((await recoveryCodes.left(services.database, holder.id)) > 0) return undefined;
  return replaceRecoveryCodes(services.database, holder.id, now);
}

export async function addHolderPasskey(
  services: Services,
  holder: Holder,
  form: { challengeId: string; name: string; credential: RegistrationResponseJSON },
  now: number,
) {
  return services.database.transaction(async () => {
    const hadFactor = await hasSecondFactor(services.database, holder.id);
    const passkey = await addPasskey(services, holder.id, form, now);
    await record(services, holder, "operator.passkey-add", { name: passkey.name }, now);
    const codes = await afterFactorAdded(services, holder, hadFactor, now);
    return { passkey, ...(codes && { recoveryCodes: codes }) };
  });
}

/** Confirms the pending authenticator app with its first code; answers the recovery codes. */
export async function confirmHolderTotp(
  services: Services,
  holder: Holder,
  code: string,
  wallTime: number,
  now: number,
) {
  const { database } = services;
  const pending = await totp.ofOperator(database, holder.id);
  if (!pending) throw new AppError("totp_not_started");
  if (pending.enabled_at !== null) throw new AppError("totp_already_enabled");
  const hadFactor = await hasSecondFactor(database, holder.id);
  const isRight = await spendTotpCode(
    { database, jwtSecret: services.config.jwtSecret },
    holder.id,
    code,
    wallTime,
    true,
  );
  if (!isRight) throw new AppError("wrong_second_factor_code");
  return database.transaction(async () => {
    if ((await totp.enable(database, holder.id, now)).changes !== 1)
      throw new AppError("totp_already_enabled");
    await record(services, holder, "operator.totp-add", {}, now);
    // An app set up next to passkeys brings new codes too: its set-up is where people expect them.
    const codes =
      (await afterFactorAdded(services, holder, hadFactor, now)) ??
      (await replaceRecoveryCodes(database, holder.id, now));
    return { recoveryCodes: codes };
  });
}

/**
 * Removes a factor, in one transaction with the check that someone who must have a second
 * factor keeps one; with none left, the recovery codes go too (they stand in for a factor).
 */
async function removeFactor(
  services: Services,
  holder: Holder,
  remove: () => Promise<boolean>,
  audited: () => Promise<unknown>,
  missing: "passkey_not_found" | "totp_not_started",
) {
  const { database, config } = services;
  await database.transaction(async () => {
    if (!(await remove())) throw new AppError(missing);
    const hasLeft = await hasSecondFactor(database, holder.id);
    if (!hasLeft && isSecondFactorRequired(holder.role, config)) throw new AppError("last_second_factor");
    if (!hasLeft) await recoveryCodes.deleteOfOperator(database, holder.id);
    await audited();
  });
}

export async function removeHolderPasskey(
  services: Services,
  holder: Holder,
  passkeyId: number,
  now: number,
) {
  const passkey = (await passkeys.ofOperator(services.database, holder.id)).find(
    (row) => row.id === passkeyId,
  );
  await removeFactor(
    services,
    holder,
    async () =>
      passkey !== undefined && (await passkeys.delete(services.database, holder.id, passkeyId)).changes === 1,
    () => record(services, holder, "operator.passkey-remove", { name: passkey?.name ?? "" }, now),
    "passkey_not_found",
  );
}

export async function removeHolderTotp(services: Services, holder: Holder, now: number) {
  await removeFactor(
    services,
    holder,
    async () => (await totp.delete(services.database, holder.id)).changes === 1,
    () => record(services, holder, "operator.totp-remove", {}, now),
    "totp_not_started",
  );
}

export async function renewHolderRecoveryCodes(services: Services, holder: Holder, now: number) {
  return services.database.transaction(async () => {
    if (!(await hasSecondFactor(services.database, holder.id))) throw new AppError("totp_not_started");
    const codes = await replaceRecoveryCodes(services.database, holder.id, now);
    await record(services, holder, "operator.recovery-codes-new", {}, now);
    return { recoveryCodes: codes };
  });
}

/** What the operator's security page shows of their factors; never a secret. */
export async function factorsOf(services: Services, holder: Holder, now: number) {
  const { database, config } = services;
  const [keys, app, left, checkedAt] = await Promise.all([
    passkeys.ofOperator(database, holder.id),
    totp.ofOperator(database, holder.id),
    recoveryCodes.left(database, holder.id),
    signInChecks.checkedAt(database, holder.familyId),
  ]);
  const freshUntil = checkedAt === undefined ? null : checkedAt + freshCheckMs;
  return {
    passkeys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      createdAt: key.created_at,
      lastUsedAt: key.last_used_at,
    })),
    totp: app?.enabled_at ? { enabledAt: app.enabled_at } : null,
    recoveryCodesLeft: left,
    isRequired: isSecondFactorRequired(holder.role, config),
    freshUntil: freshUntil !== null && freshUntil > now ? freshUntil : null,
  };
}
