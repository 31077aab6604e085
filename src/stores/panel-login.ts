import { atom } from "nanostores";
import type { ErrorCode } from "../../bff/platform/errors";
import { type ApiData, api } from "../lib/api-client";
import { type AltchaChallenge, solveAltcha } from "../lib/captcha-solver";
import { translate } from "../lib/i18n/runtime";
import { renderRecaptcha } from "../lib/recaptcha";
import { refreshTokens, securityPage, storeTokens } from "./panel-session";

/**
 * /panel-login (spec §2, §4 "Operator session"): with a stored refresh token it is tried
 * first ('Ожидание', then 'Успешно' and on to the search); without one, the form. An operator
 * with a second factor then proves it (DESIGN §12): the second step.
 */
export const $loginStage = atom<"refreshing" | "refreshed" | "form" | "second-factor">("refreshing");

/** A password accepted, the second factor still to come: the server's ticket and its ways. */
export type SecondStep = {
  ticket: string;
  methods: ("passkey" | "totp" | "recovery")[];
  /** When the ticket ends, by this browser's clock. */
  deadline: number;
};
export const $secondStep = atom<SecondStep | undefined>();
/** reCAPTCHA v2 replaces the built-in proof of work when the server has its keys. */
export const $recaptchaSiteKey = atom<string | undefined>();
/** The solved captcha the next sign-in spends. */
export const $captcha = atom<string | undefined>();
export const $isSolvingCaptcha = atom(false);
export const $isSigningIn = atom(false);
export const $loginError = atom<string | undefined>();

async function loadCaptchaProvider(): Promise<void> {
  try {
    const { data } = await api.auth.captcha.get();
    if (data?.provider === "recaptcha" && data.siteKey) $recaptchaSiteKey.set(data.siteKey);
  } catch {
    // The proof of work stays.
  }
}

async function resumeSession(): Promise<void> {
  if (!(await refreshTokens())) {
    $loginStage.set("form");
    return;
  }
  $loginStage.set("refreshed");
  location.assign("/panel-search");
}

export const openLogin = async () => {
  await Promise.all([loadCaptchaProvider(), resumeSession()]);
};

/** Google's checkbox in `slot`; its answer (or its expiry) replaces the captcha to spend. */
export function showRecaptcha(slot: HTMLElement, siteKey: string): Promise<void> {
  return renderRecaptcha(slot, siteKey, (token) => $captcha.set(token)).catch(() =>
    $loginError.set(translate("panel.loginFailed")),
  );
}

/** The built-in captcha's checkbox: ticking it solves a fresh challenge, unticking drops it. */
export async function solveCaptcha(isChecked: boolean): Promise<void> {
  if (!isChecked) {
    $captcha.set(undefined);
    return;
  }
  $isSolvingCaptcha.set(true);
  try {
    const { data } = await api.auth.captcha.get();
    if (!data) throw new Error("no captcha challenge");
    $captcha.set(await solveAltcha(data as AltchaChallenge));
  } catch {
    $loginError.set(translate("panel.captchaFailed"));
  } finally {
    $isSolvingCaptcha.set(false);
  }
}

/**
 * Why the server refused the sign-in, by its code (the x-error-code header of the login's
 * plain-text refusal). Where the server's text (worded in the operator's language) is the
 * form's own, it is shown as sent; the form keeps its words where they differ: for the
 * captcha ("reCAPTCHA not solved!" is the spec's text for callers of the API, while the form
 * says what to do, whichever captcha it shows), for a disabled account (the form names it a
 * staff account) and for the cool-down (in English the form writes "min.", the server
 * "minutes").
 */
function refusalText(headers: Headers, serverText: string | undefined): string {
  const minutes = Math.max(1, Math.ceil(Number(headers.get("retry-after") ?? 60) / 60));
  switch (headers.get("x-error-code") as ErrorCode | null) {
    case "captcha_not_solved":
    case "captcha_used":
      return translate("panel.captchaNotSolved");
    case "wrong_credentials":
      return serverText ?? translate("panel.wrongCredentials");
    case "operator_disabled":
      return translate("panel.accountDisabled");
    case "too_many_sign_ins":
      return translate("panel.tooManySignIns", { minutes });
    case "sign_in_busy":
      return serverText ?? translate("panel.signInBusy");
    default:
      return translate("panel.loginFailed");
  }
}

/** The plain-text refusal's words, when it carried any. */
const textOf = (error: { value?: unknown } | null) =>
  typeof error?.value === "string" && error.value.trim() ? error.value.trim() : undefined;

type LoginAnswer = ApiData<typeof api.auth.login.post>;
/** Tokens: the panel opens (or, with enrolmentRequired, only its Security screen). */
export type SignInAnswer = Exclude<LoginAnswer, { secondFactor: unknown }>;

/**
 * The ticket's end by this browser's clock: what the server gives it (by its own clock) after
 * the time its answer was dated, so a browser whose clock is off still waits the whole time.
 */
function deadlineOf(expiresAt: number, headers: Headers): number {
  const sentAt = Date.parse(headers.get("date") ?? "");
  return Number.isNaN(sentAt) ? expiresAt : Date.now() + (expiresAt - sentAt);
}

/** Signed in: into the panel, or to the Security screen while a second factor must be enrolled. */
export function enterPanel(answer: SignInAnswer): void {
  storeTokens(answer);
  location.assign(answer.enrolmentRequired ? securityPage : "/panel-search");
}

/** Back to the password form (a ticket ended, or the operator chose to), saying why when there is a reason. */
export function backToPassword(reason?: string): void {
  $secondStep.set(undefined);
  $loginError.set(reason);
  $loginStage.set("form");
}

export async function signIn(username: string, password: string): Promise<void> {
  const captcha = $captcha.get();
  if (!captcha) {
    $loginError.set(translate("panel.captchaNotSolved"));
    return;
  }
  $isSigningIn.set(true);
  $loginError.set(undefined);
  try {
    const { data, error, response } = await api.auth.login.post({ username, password, captcha });
    if (!response) throw new Error("the server was not reached");
    if (!response.ok || !data) {
      // The server's reason in the operator's language; the captcha is spent either way.
      $loginError.set(refusalText(response.headers, textOf(error)));
      $captcha.set(undefined);
      return;
    }
    const answer: LoginAnswer = data;
    if ("secondFactor" in answer) {
      // Spent: should the ticket end, the password form asks for a new one.
      $captcha.set(undefined);
      const { ticket, methods, expiresAt } = answer.secondFactor;
      $secondStep.set({ ticket, methods, deadline: deadlineOf(expiresAt, response.headers) });
      $loginStage.set("second-factor");
      return;
    }
    enterPanel(answer);
  } catch {
    $loginError.set(translate("panel.loginFailed"));
  } finally {
    $isSigningIn.set(false);
  }
}
