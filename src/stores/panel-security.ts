import { atom, map } from "nanostores";
import { type ApiData, api, errorCode } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { createPasskey } from "../lib/passkeys";
import { showToast } from "../lib/toast/toast-store";
import { requestFreshCheck } from "./panel-fresh-check";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";
import { failureText, passkeyProblemText } from "./second-factor-words";

/**
 * The operator's own second factor (DESIGN §12, /panel-security): passkeys, the authenticator
 * app, recovery codes. Every change that adds or removes one may meet the fresh check
 * (panel-fresh-check.ts), after which it runs again by itself.
 */
export type Security = ApiData<typeof api.panel.security.get>;
export type Passkey = Security["passkeys"][number];
export type TotpSetup = ApiData<typeof api.panel.security.totp.start.post>;
/** A change on screen: under way, or why the last one did not happen. */
export type Change = { isBusy: boolean; error?: string };

export const $security = atom<Security | undefined>();
/** The app's secret and QR while it is being set up: shown only then, never stored. */
export const $totpSetup = atom<TotpSetup | undefined>();
/** Recovery codes the server just made: shown once, gone when dismissed or the page is left. */
export const $recoveryCodes = atom<string[] | undefined>();
/** Opened by an operator who had to enrol and had no factor: once one is added, the way on. */
export const $wasEnrolling = atom(false);
/** Each change by its name ("passkey-add", "passkey-remove:<id>", "totp-start", …). */
export const $changes = map<Record<string, Change | undefined>>({});

export const hasFactor = (security: Security) => security.passkeys.length > 0 || security.totp !== null;

const read = () => panelCall((headers) => api.panel.security.get({ headers }));
const security = panelQuery("security", read, {
  onReady: (data) => {
    if ($security.get() === undefined) $wasEnrolling.set(data.isRequired && !hasFactor(data));
    $security.set(data);
  },
});
export const $securityRead = security.$loaded;
export const openSecurity = () => security.ask("security");
export const retrySecurity = security.retry;

/** After a change: the screen as the server now has it, read without a loading state. */
async function reread(): Promise<void> {
  const { data } = await read().catch(() => ({ data: null }));
  if (data) $security.set(data);
}

/** A refusal the change stops at: its words, and its code to tell the fresh check from the rest. */
class Refused extends Error {
  constructor(
    readonly text: string,
    readonly code?: string,
  ) {
    super(text);
  }
}

type Call<D> = Parameters<typeof panelCall<D>>[0];

async function ask<D>(call: Call<D>): Promise<D> {
  const { data, error } = await panelCall(call);
  if (data !== null && data !== undefined) return data;
  throw new Refused(failureText(error), errorCode(error));
}

/**
 * Runs one change: busy meanwhile, a second press ignored; when the server asks for a fresh
 * check, busy until the operator answers it, then once more. True when it was done.
 */
async function change(key: string, action: () => Promise<void>): Promise<boolean> {
  if ($changes.get()[key]?.isBusy) return false;
  $changes.setKey(key, { isBusy: true });
  for (let attempt = 1; ; attempt++) {
    try {
      await action();
      $changes.setKey(key, undefined);
      return true;
    } catch (problem) {
      const isFreshCheck = problem instanceof Refused && problem.code === "fresh_check_required";
      if (isFreshCheck && attempt === 1 && (await requestFreshCheck())) continue;
      const error = isFreshCheck
        ? translate(attempt === 1 ? "panel.freshCheckCancelled" : "panel.requestFailed")
        : problem instanceof Refused
          ? problem.text
          : translate("panel.requestFailed");
      $changes.setKey(key, { isBusy: false, error });
      return false;
    }
  }
}

/** Forgets why a change did not happen (its form was changed or closed). */
export const clearChange = (key: string) => $changes.setKey(key, undefined);

function showCodes(codes: string[] | undefined): void {
  if (codes && codes.length > 0) $recoveryCodes.set(codes);
}
export const dismissRecoveryCodes = () => $recoveryCodes.set(undefined);

/** A passkey of this device (or a security key), named by the operator; true when added. */
export async function addPasskey(name: string): Promise<boolean> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 64) {
    $changes.setKey("passkey-add", { isBusy: false, error: translate("panel.passkeyNameInvalid") });
    return false;
  }
  return change("passkey-add", async () => {
    const challenge = await ask((headers) => api.panel.security.passkeys.options.post({}, { headers }));
    const made = await createPasskey(challenge.options);
    if ("problem" in made) throw new Refused(passkeyProblemText(made.problem));
    const added = await ask((headers) =>
      api.panel.security.passkeys.post(
        { challengeId: challenge.challengeId, name: trimmed, credential: made.response },
        { headers },
      ),
    );
    showCodes(added.recoveryCodes);
    showToast(translate("panel.passkeyAdded", { name: added.passkey.name }), "success");
    await reread();
  });
}

export const removePasskey = (passkey: Passkey) =>
  change(`passkey-remove:${passkey.id}`, async () => {
    await ask((headers) => api.panel.security.passkeys({ id: passkey.id }).delete({}, { headers }));
    showToast(translate("panel.passkeyRemoved", { name: passkey.name }), "success");
    await reread();
  });

/** The app's secret and QR code, to be confirmed by one of its codes. */
export const startTotp = () =>
  change("totp-start", async () => {
    $totpSetup.set(await ask((headers) => api.panel.security.totp.start.post({}, { headers })));
  });

export function cancelTotp(): void {
  $totpSetup.set(undefined);
  clearChange("totp-confirm");
}

/** The app's first code turns it on; its recovery codes are shown once. */
export function confirmTotp(code: string): Promise<boolean> {
  const typed = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(typed)) {
    $changes.setKey("totp-confirm", { isBusy: false, error: translate("panel.factorCodeMissing") });
    return Promise.resolve(false);
  }
  return change("totp-confirm", async () => {
    const enabled = await ask((headers) => api.panel.security.totp.post({ code: typed }, { headers }));
    $totpSetup.set(undefined);
    showCodes(enabled.recoveryCodes);
    showToast(translate("panel.totpAdded"), "success");
    await reread();
  });
}

export const removeTotp = () =>
  change("totp-remove", async () => {
    await ask((headers) => api.panel.security.totp.delete({}, { headers }));
    showToast(translate("panel.totpRemoved"), "success");
    await reread();
  });

/** A new set of recovery codes, shown once; the old ones stop working. */
export const newRecoveryCodes = () =>
  change("recovery-codes", async () => {
    showCodes(
      (await ask((headers) => api.panel.security["recovery-codes"].post({}, { headers }))).recoveryCodes,
    );
    await reread();
  });
