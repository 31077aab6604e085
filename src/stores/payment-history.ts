import { atom } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { $email, $uid } from "./customer";

export type PaymentEntry = ApiData<typeof api.profile.payments.post>["payments"][number];

/**
 * The cabinet's payment history. "failed" is its own state so a failed call is never
 * shown as an empty history: saying "no payments" when we do not know would be a wrong
 * fact about money.
 */
export type PaymentHistoryState =
  | { status: "loading" }
  | { status: "failed" }
  | { status: "ready"; payments: PaymentEntry[]; hasMore: boolean };

export const $paymentHistory = atom<PaymentHistoryState>({ status: "loading" });

export async function loadPaymentHistory(): Promise<void> {
  $paymentHistory.set({ status: "loading" });
  try {
    const { data, error } = await api.profile.payments.post({ email: $email.get(), uid: $uid.get() });
    if (error || !data) throw error ?? new Error("no payment history");
    $paymentHistory.set({ status: "ready", payments: data.payments, hasMore: data.hasMore });
  } catch (error) {
    console.error("payment history failed", error);
    $paymentHistory.set({ status: "failed" });
  }
}
