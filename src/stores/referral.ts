import { atom } from "nanostores";
import { api } from "../lib/api-client";
import { storageKeys, writeStorage } from "../lib/storage-keys";
import { $email, $uid } from "./customer";

export const $referralCode = atom<string | undefined>();

/** The invite link: the site root with the code as `token` (the landing stores it as `promo`). */
export const inviteLink = (code: string) => `${location.origin}/?token=${encodeURIComponent(code)}`;

/** Spec §8: a failure or a refusal goes home. */
export async function loadReferralCode(): Promise<void> {
  if (!$email.get()) {
    location.assign("/");
    return;
  }
  try {
    const { data, error } = await api.profile.getReferralCode.post({ email: $email.get(), uid: $uid.get() });
    if (error || !data?.success) throw error ?? new Error("not success");
    writeStorage(storageKeys.referral, data.referralCode);
    $referralCode.set(data.referralCode);
  } catch (error) {
    console.error("referral code failed", error);
    location.assign("/");
  }
}
