import { isSingleMailbox } from "../../../core/email-address";
import { currencyOf, type Language } from "../../../core/languages";
import { planFor } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import type { AppContext } from "../../context";
import { releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { bindPrepaid, type PrepaidOutcome } from "../payments/orders/prepaid-binding";
import { refundRefusedTrialsNow } from "../payments/refunds/refused-trial-refunds";
import { promoLimitKeys } from "../promos/promo-limits";
import { assertPeriod, assertTariff } from "../subscriptions/pricing";
import type { registerBody } from "./model";
import { type CustomerProvider, customerProviders } from "./providers";
import { applyReferralCode } from "./sign-up-code";

/** The body POST /register takes, and what the request adds to it. */
export type RegisterInput = typeof registerBody.static & {
  language: Language;
  /** The client's address, for the promo-guessing limit. */
  address?: string;
};

function assertProvider(providerId: string): CustomerProvider {
  if (!(customerProviders as readonly string[]).includes(providerId)) {
    throw new AppError("invalid_provider");
  }
  return providerId as CustomerProvider;
}

/**
 * A code given at sign-in counts against the promo-guessing limit like one typed in the
 * cabinet; past the limit it is ignored rather than refused, so a stale code kept in the
 * browser never stops anyone signing in, and sign-in is no oracle for guessing codes.
 */
async function applyCodeWithinLimits(
  database: Database,
  userId: number,
  code: string | null | undefined,
  address: string,
  now: number,
): Promise<void> {
  if (!code?.trim()) return;
  const keys = promoLimitKeys(userId, address);
  try {
    await reserveAttempt(database, keys, now, "too_many_promo_codes");
  } catch (error) {
    if (error instanceof AppError && error.code === "too_many_promo_codes") return;
    throw error;
  }
  if ((await applyReferralCode(database, userId, code, now)) !== "unknown")
    await releaseAttempt(database, keys);
}

/**
 * A Google ID token is only good for the sign-in attempt that asked for it: the page
 * started Google's popup with a random nonce and sends it here, so a token obtained
 * elsewhere and replayed into this browser is refused (DESIGN §12). Tokens without a
 * nonce (the demo provider's API for outside tests) stay valid when no nonce is claimed.
 */
function assertNonce(providerId: CustomerProvider, tokenNonce: string | undefined, bodyNonce?: string) {
  if (providerId !== "google.com") return;
  if (tokenNonce === undefined && !bodyNonce) return;
  if (tokenNonce !== bodyNonce) {
    throw new AppError("google_nonce_mismatch");
  }
}

/**
 * Signs a customer up or in: the provider's credential decides who they are, the
 * body must agree; the plan and any referral or promo code are recorded atomically.
 */
export async function registerCustomer(
  context: Pick<AppContext, "database" | "clock" | "config" | "identity" | "payments">,
  input: RegisterInput,
) {
  const { database, clock, identity } = context;
  const trialDays = assertPeriod(input.period ?? 1);
  const tariff = assertTariff(input.tariff ?? 1);
  const providerId = assertProvider(input.providerId);
  const verified = await identity.verify(providerId, input.credential ?? "");
  if (verified.uid !== input.uid || verified.email.toLowerCase() !== input.email.trim().toLowerCase()) {
    throw new AppError("sign_in_mismatch");
  }
  assertNonce(providerId, verified.nonce, input.nonce);
  // The address is where every notice and receipt goes: a provider's value that mail
  // headers would read as a list or a display name ("a,b@x", "Name<a@x>") is refused.
  if (!isSingleMailbox(verified.email)) throw new AppError("email_not_plain");
  const now = clock.now();
  let prepaid: PrepaidOutcome | undefined;
  // One transaction: look up or create the account, its order and its codes together, so
  // two sign-ins of the same new account cannot both create it or both open an order.
  const userId = await database.transaction(async () => {
    const existing = await users.byProviderUid(database, providerId, verified.uid);
    const id =
      existing?.id ??
      (await users.insert(
        database,
        {
          providerId,
          uid: verified.uid,
          email: verified.email,
          photoUrl: verified.photoURL ?? input.photoURL ?? null,
          language: input.language,
          currency: currencyOf(input.language),
        },
        now,
      ));
    if (existing) await users.updateContact(database, id, verified.email, verified.photoURL ?? null);
    const currency = existing?.currency ?? currencyOf(input.language);
    const current = await subscriptions.current(database, id);
    const plan = planFor(currency, tariff, trialDays);
    if (!current || current.status === "EXPIRED")
      await subscriptions.insertNotActive(database, id, plan, now);
    else if (current.status === "NOT_ACTIVE") await subscriptions.updatePlan(database, current.id, plan, now);
    await applyCodeWithinLimits(database, id, input.referralCode, input.address ?? "127.0.0.1", now);
    if (input.prepaidToken)
      prepaid = await bindPrepaid(database, id, input.prepaidToken, input.language, now);
    return id;
  });
  // A 1-unit purchase refused because the account had its trial goes back to the card now,
  // outside the transaction (a gateway call); a failure is retried by the renewal pass.
  if (prepaid && !prepaid.bound && prepaid.isRefundDue) await refundRefusedTrialsNow(context);
  const subscription = await subscriptions.current(database, userId);
  return { userId, subscription, prepaid };
}
