import { atom } from "nanostores";
import { type ApiData, api, errorCode, type FailureCause, failureCause } from "../lib/api-client";

/** A QR as the demo bank shows it (GET /api/dev/sandbox/sbp/qr). */
export type SbpQr = ApiData<typeof api.dev.sandbox.sbp.qr.get>;

/** How the payer's bank answers the shop's later autopay charges: the SBP counterpart of the test cards. */
export const autopayAccounts = ["ok", "declinesLater", "revoked", "silent"] as const;
export type AutopayAccount = (typeof autopayAccounts)[number];

/** What came of the payer's choice: paid, declined, refused by the shop's Check, or too late. */
export type SbpOutcome = "paid" | "declined" | "refusedByShop" | "expired";

/**
 * The demo bank page (/dev-sbp?qr=…). "missing" is a QR the bank does not have (or no QR
 * named at all), "failed" a look-up that did not work, so neither reads as the other. While
 * ready, `action` is the choice being sent and `failure` why the last one did not get through.
 */
export type DevSbpState =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "failed"; cause: FailureCause }
  | { status: "ready"; qr: SbpQr; action?: "pay" | "decline"; failure?: FailureCause }
  | { status: "done"; qr: SbpQr; outcome: SbpOutcome; transactionId?: number | string; checkCode?: number };

export const $devSbp = atom<DevSbpState>({ status: "loading" });
export const $autopayAccount = atom<AutopayAccount>("ok");

/** Looks the QR of the page's address up. */
export async function openQr(qr: string | null): Promise<void> {
  if (!qr) {
    $devSbp.set({ status: "missing" });
    return;
  }
  $devSbp.set({ status: "loading" });
  const { data, error } = await api.dev.sandbox.sbp.qr.get({ query: { qr } });
  if (data) {
    $devSbp.set({ status: "ready", qr: data });
    return;
  }
  console.error("the demo bank could not show the QR", error);
  $devSbp.set(
    errorCode(error) === "sbp_qr_not_found"
      ? { status: "missing" }
      : { status: "failed", cause: failureCause(error) },
  );
}

export function chooseAutopayAccount(account: AutopayAccount): void {
  $autopayAccount.set(account);
}

/** The payer pays or declines, as in their bank app; the shop hears of it by notification. */
export async function decide(action: "pay" | "decline"): Promise<void> {
  const current = $devSbp.get();
  if (current.status !== "ready" || current.action) return;
  const { qr } = current;
  $devSbp.set({ status: "ready", qr, action });
  const { data, error } = await api.dev.sandbox.sbp.pay.post({
    qr: qr.qr,
    outcome: action,
    // The choice only means something when the shop asked for autopay.
    account: qr.asksAutopay && action === "pay" ? $autopayAccount.get() : undefined,
  });
  if (!data) {
    console.error("the demo bank could not pay the QR", error);
    if (errorCode(error) === "sbp_qr_not_found") $devSbp.set({ status: "missing" });
    else $devSbp.set({ status: "ready", qr, failure: failureCause(error) });
    return;
  }
  const transactionId = "transactionId" in data ? data.transactionId : undefined;
  const checkCode = "checkCode" in data ? data.checkCode : undefined;
  const outcome: SbpOutcome = data.success
    ? "paid"
    : transactionId === undefined
      ? "expired"
      : checkCode === undefined
        ? "declined"
        : "refusedByShop";
  $devSbp.set({ status: "done", qr, outcome, transactionId, checkCode });
}
