import { atom, computed } from "nanostores";
import type { ErrorCode } from "../../bff/platform/errors";
import { api, errorCode, errorMessage, type FailureCause, failureCause } from "../lib/api-client";
import { formatUntil } from "../lib/format";
import { $language, translate } from "../lib/i18n/runtime";
import { queueToastForNextPage } from "../lib/toast/toast-store";
import { goToSignIn, needsSignIn } from "./auth";
import { $email, $uid } from "./customer";

/**
 * /cancel?token=… from a renewal notice (DESIGN §14): the screen works from the signed
 * token alone, with no sign-in. The token is taken out of the address bar as soon as it
 * is read and lives only in this module's memory, never in storage or history.
 */
type Account = { email: string; status: string; subscriptionIsActive: boolean; endDate: string | null };

export type CancelLinkState =
  | { step: "loading" }
  /** An ACTIVE subscription: the farewell, the question and the hold-to-confirm. */
  | { step: "ready"; email: string }
  | { step: "cancelled"; endDate: string | null }
  | { step: "already-cancelled"; email: string; endDate: string | null }
  | { step: "not-active"; email: string }
  /** The server's own words: an invalid or expired link, too many tries, nothing to cancel. */
  | { step: "refused"; reason: CancelLinkRefusal; message: string | undefined }
  /** The account could not be read: nothing answered, or the server failed. Try again. */
  | { step: "failed"; cause: LoadFailure };

/** Why a screen could not be loaded: only a call nothing answered blames the connection. */
export type LoadFailure = "network" | "server";
const loadFailureOf = (error?: { status?: unknown; value?: unknown } | null): LoadFailure =>
  failureCause(error) === "network" ? "network" : "server";

export const $cancelLink = atom<CancelLinkState>({ step: "loading" });
/**
 * Why a cancel did not go through, in the reader's words: the server's refusal where it
 * answered, else that it could not be reached. The screen stays so the hold can be tried again.
 */
export const $cancelLinkError = atom<string | undefined>();

/**
 * A failed cancel's words: the connection's fault only when nothing answered; a server that
 * failed (5xx, a proxy's page included) says so and to try later; a refusal in its own words.
 */
function cancelFailure(error?: { status?: unknown; value?: unknown } | null): string {
  const cause: FailureCause = failureCause(error);
  if (cause === "network") return translate("cancel.linkCancelFailed");
  if (cause === "server") return translate("cancel.serverFailed");
  return errorMessage(error) ?? translate("cancel.serverFailed");
}

/** The cabinet for whoever holds the link: straight in when this browser is signed in, else via sign-in. */
export const $cabinetLink = computed($email, (email) =>
  email ? { href: "/profile", isSignedIn: true } : { href: "/login", isSignedIn: false },
);

let token: string | undefined;
let isRead = false;

/** The link's token, read once; the address keeps everything but the token, in place of the old entry. */
export function takeCancelToken(): string | undefined {
  if (isRead) return token;
  isRead = true;
  const url = new URL(location.href);
  const value = url.searchParams.get("token");
  if (value === null) return undefined;
  url.searchParams.delete("token");
  history.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`);
  token = value;
  return token;
}

function viewOf(account: Account): CancelLinkState {
  if (account.status === "ACTIVE") return { step: "ready", email: account.email };
  if (account.status === "CANCELED" && account.subscriptionIsActive)
    return { step: "already-cancelled", email: account.email, endDate: account.endDate };
  return { step: "not-active", email: account.email };
}

/** What a refused link means to its reader, by the refusal's code. */
export type CancelLinkRefusal = "invalid" | "nothing-to-cancel" | "later";
const refusals: Partial<Record<ErrorCode, CancelLinkRefusal>> = {
  cancel_link_invalid: "invalid",
  already_cancelled: "nothing-to-cancel",
  account_has_no_subscription: "nothing-to-cancel",
  too_many_cancel_links: "later",
};

/** These refusals carry a message for the person; anything else is a failure to retry. */
function refusalOf(error: { value?: unknown } | null | undefined): CancelLinkState | undefined {
  const code = errorCode(error);
  const reason = code && refusals[code];
  return reason ? { step: "refused", reason, message: errorMessage(error) } : undefined;
}

export async function openCancelLink(): Promise<void> {
  if (token === undefined) return;
  $cancelLink.set({ step: "loading" });
  try {
    const { data, error } = await api.subscriptions["cancel-link"].post({ token });
    if (data) {
      $cancelLink.set(viewOf(data));
      return;
    }
    console.error("cancel link failed", error);
    $cancelLink.set(refusalOf(error) ?? { step: "failed", cause: loadFailureOf(error) });
  } catch (error) {
    console.error("cancel link failed", error);
    $cancelLink.set({ step: "failed", cause: "network" });
  }
}

export async function confirmCancelLink(): Promise<void> {
  if (token === undefined) return;
  $cancelLinkError.set(undefined);
  try {
    const { data, error } = await api.subscriptions["cancel-link"].cancel.post({ token });
    if (data) {
      $cancelLink.set({ step: "cancelled", endDate: data.expirationDate });
      return;
    }
    console.error("cancel by link failed", error);
    const refusal = refusalOf(error);
    if (refusal) $cancelLink.set(refusal);
    else $cancelLinkError.set(cancelFailure(error));
  } catch (error) {
    console.error("cancel by link failed", error);
    $cancelLinkError.set(cancelFailure());
  }
}

/**
 * The signed-in /cancel (no token): the profile is read here, so a failed call shows an
 * error with a retry and is never taken for "no active subscription" (which sent the
 * customer away to the cabinet as if there were nothing to cancel).
 */
export type CancelScreenState =
  | { step: "loading" }
  | { step: "failed"; cause: LoadFailure }
  | { step: "ready" };
export const $cancelScreen = atom<CancelScreenState>({ step: "loading" });
/** Why the cancel call failed (cancelFailure's words): the screen stays, says so, and the hold can be tried again. */
export const $cancelFailed = atom<string | undefined>();

const ownIdentity = () => ({ email: $email.get(), uid: $uid.get() });

export async function openCancelScreen(): Promise<void> {
  if (!$email.get()) {
    goToSignIn();
    return;
  }
  $cancelScreen.set({ step: "loading" });
  try {
    const { data, error } = await api.profile.post(ownIdentity());
    if (needsSignIn(error)) {
      goToSignIn();
      return;
    }
    if (!data) {
      console.error("profile for cancel failed", error);
      $cancelScreen.set({ step: "failed", cause: loadFailureOf(error) });
      return;
    }
    // Spec: only an active subscription gets here; the cabinet shows any other state.
    if (data.userInfo.subscriptionStatus !== "ACTIVE") {
      location.assign("/profile");
      return;
    }
    $cancelScreen.set({ step: "ready" });
  } catch (error) {
    console.error("profile for cancel failed", error);
    $cancelScreen.set({ step: "failed", cause: "network" });
  }
}

/**
 * Spec: a cancel posts the request, then goes to /profile; the cabinet there opens with a
 * confirmation naming the end of access. A failure keeps the screen with its message.
 */
export async function confirmCancel(): Promise<void> {
  $cancelFailed.set(undefined);
  try {
    const { data, error } = await api.subscriptions.cancel.post(ownIdentity());
    if (needsSignIn(error)) {
      goToSignIn();
      return;
    }
    if (!data) {
      console.error("cancel failed", error);
      $cancelFailed.set(cancelFailure(error));
      return;
    }
    const until = data.expirationDate;
    queueToastForNextPage(
      until
        ? translate("cabinet.cancelledToast", { until: formatUntil(until, $language.get()) })
        : translate("cancel.linkNoCharges"),
      "success",
    );
    location.assign("/profile");
  } catch (error) {
    console.error("cancel failed", error);
    $cancelFailed.set(cancelFailure());
  }
}
