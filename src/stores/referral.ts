import { atom } from "nanostores";
import { type ApiData, api, errorMessage, isNetworkFailure } from "../lib/api-client";
import { storageKeys, writeStorage } from "../lib/storage-keys";
import { goToSignIn, needsSignIn } from "./auth";
import { $email, $uid } from "./customer";

/**
 * Why a call failed, as the customer should hear it: the server never answered (check the
 * connection), or it answered with a refusal, whose own words (`message`, in the customer's
 * language) are shown when it gave some.
 */
export type Failure = { status: "failed"; cause: "network" | "server"; message?: string };

/** What failed the call: only a request that never got an answer blames the connection. */
function failureOf(error: { status?: unknown; value?: unknown } | null | undefined): Failure {
  if (!error || isNetworkFailure(error) || !error.status) return { status: "failed", cause: "network" };
  const message = errorMessage(error);
  return message ? { status: "failed", cause: "server", message } : { status: "failed", cause: "server" };
}

/**
 * The customer's own referral code. "failed" is a state of its own: a failed call shows an
 * error with a retry instead of sending the customer away (the spec's "go to /" lost them).
 */
export type ReferralCodeState = { status: "loading" } | Failure | { status: "ready"; code: string };
export const $referralCode = atom<ReferralCodeState>({ status: "loading" });

/** The invite link: the site root with the code as `token` (the landing stores it as `promo`). */
export const inviteLink = (code: string) => `${location.origin}/?token=${encodeURIComponent(code)}`;

export async function loadReferralCode(): Promise<void> {
  if (!$email.get()) {
    goToSignIn();
    return;
  }
  $referralCode.set({ status: "loading" });
  try {
    const { data, error } = await api.profile.getReferralCode.post({ email: $email.get(), uid: $uid.get() });
    if (needsSignIn(error)) {
      goToSignIn();
      return;
    }
    if (error || !data?.success) {
      console.error("referral code failed", error);
      $referralCode.set(error ? failureOf(error) : { status: "failed", cause: "server" });
      return;
    }
    writeStorage(storageKeys.referral, data.referralCode);
    $referralCode.set({ status: "ready", code: data.referralCode });
  } catch (error) {
    console.error("referral code failed", error);
    $referralCode.set({ status: "failed", cause: "network" });
  }
}

export type Invitee = ApiData<typeof api.profile.referrals.post>["invitees"][number];
export type InviteeReason = Invitee["reason"];

/**
 * The invited friends and whether each counts. "failed" is its own state so a failed call
 * is never shown as "no friends invited": that would tell the customer a wrong fact about
 * their discount.
 */
export type InviteesState = { status: "loading" } | Failure | { status: "ready"; invitees: Invitee[] };

export const $invitees = atom<InviteesState>({ status: "loading" });
/** The referral discount now in force (a fraction), when the shop data says it; undefined hides the line. */
export const $referralDiscount = atom<number | undefined>();

export async function loadInvitees(): Promise<void> {
  $invitees.set({ status: "loading" });
  const identity = { email: $email.get(), uid: $uid.get() };
  const [invitees, shop] = await Promise.allSettled([
    api.profile.referrals.post(identity),
    api.shop.getShop.post(identity),
  ]);
  // The total is a nicety: without shop data the list still shows, only the total line is left out.
  if (shop.status === "fulfilled" && shop.value.data) $referralDiscount.set(shop.value.data.referralDiscount);
  if (invitees.status === "fulfilled" && needsSignIn(invitees.value.error)) {
    goToSignIn();
    return;
  }
  if (invitees.status === "fulfilled" && invitees.value.data?.success) {
    $invitees.set({ status: "ready", invitees: invitees.value.data.invitees });
    return;
  }
  console.error("invitees failed", invitees.status === "rejected" ? invitees.reason : invitees.value.error);
  $invitees.set(
    invitees.status === "fulfilled" && invitees.value.error
      ? failureOf(invitees.value.error)
      : { status: "failed", cause: invitees.status === "rejected" ? "network" : "server" },
  );
}
