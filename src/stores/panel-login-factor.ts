import { atom } from "nanostores";
import { api, errorCode } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { askForPasskey } from "../lib/passkeys";
import type { SignInAnswer } from "./panel-login";
import { $loginError, $secondStep, backToPassword, enterPanel } from "./panel-login";
import { failureText, passkeyProblemText } from "./second-factor-words";

/**
 * The second step of the panel's sign-in (DESIGN §12 "Staff second factor"): a passkey, a code
 * of the authenticator app or a recovery code, spent with the ticket the password step gave;
 * and a passkey alone, without a password, from the first form.
 */

/** What is being checked now: each button is busy while its check runs, and none sends twice. */
export const $factorCheck = atom<"passkey" | "code" | undefined>();

type Refused = { error: { status: unknown; value: unknown } | null };

/** The ticket ended (five minutes, or spent): the password again, saying why. */
export const expireTicket = () => backToPassword(translate("panel.factorTicketExpired"));

/** A refused step: a ticket that ended goes back to the password form, anything else is said here. */
function refuse(refused: Refused): false {
  if (errorCode(refused.error) === "second_factor_ticket_invalid") expireTicket();
  else $loginError.set(failureText(refused.error, "panel.loginFailed"));
  return false;
}

/**
 * One check at a time: a second press while one runs is ignored, and a check that signed in
 * stays busy while the panel opens.
 */
async function checking(kind: "passkey" | "code", check: () => Promise<boolean>): Promise<void> {
  if ($factorCheck.get()) return;
  $factorCheck.set(kind);
  $loginError.set(undefined);
  let isSignedIn = false;
  try {
    isSignedIn = await check();
  } catch {
    $loginError.set(translate("panel.loginFailed"));
  } finally {
    if (!isSignedIn) $factorCheck.set(undefined);
  }
}

/**
 * A passkey: with the second step's ticket after the password, or alone (a passkey the device
 * keeps for this site, found without a username) from the first form.
 */
export const signInWithPasskey = () =>
  checking("passkey", async () => {
    const ticket = $secondStep.get()?.ticket;
    const challenge = await api.auth.passkey.options.post(ticket ? { ticket } : {});
    if (!challenge.data) return refuse(challenge);
    const used = await askForPasskey(challenge.data.options);
    if ("problem" in used) {
      $loginError.set(passkeyProblemText(used.problem));
      return false;
    }
    const signedIn = await api.auth.passkey.post({
      challengeId: challenge.data.challengeId,
      credential: used.response,
    });
    if (!signedIn.data) return refuse(signedIn);
    return enter(signedIn.data);
  });

/** A code of the authenticator app ("totp") or a recovery code, with the ticket. */
export const signInWithCode = (kind: "totp" | "recovery", code: string) =>
  checking("code", async () => {
    const step = $secondStep.get();
    if (!step) return false;
    // An app shows its code in two halves ("123 456"); a recovery code is sent as typed.
    const typed = kind === "totp" ? code.replace(/\s+/g, "") : code.trim();
    if (!typed) {
      $loginError.set(translate(kind === "totp" ? "panel.factorCodeMissing" : "panel.factorRecoveryMissing"));
      return false;
    }
    const signedIn = await api.auth["second-factor"].post({ ticket: step.ticket, kind, code: typed });
    if (!signedIn.data) return refuse(signedIn);
    return enter(signedIn.data);
  });

function enter(answer: SignInAnswer): true {
  enterPanel(answer);
  return true;
}
