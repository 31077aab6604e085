import { type TranslationKey, translator } from "../../core/i18n";
import type { Language } from "../../core/languages";

/**
 * Every refusal the BFF answers, by its domain code, with the HTTP status it answers with
 * (DESIGN §9). This is the one list: a code names what happened, in lower snake case, and
 * its words are `errors.<code>` in core/i18n, in every interface language. Services throw
 * `AppError(code, values)`; the one error handler (error-handler.ts) answers
 * `{success: false, error: {code, message}}` with the message in the caller's language.
 */
export const errorStatus = {
  // The request itself.
  invalid_input: 400,
  invalid_request: 400,
  unreadable_body: 400,
  body_too_large: 413,
  invisible_character: 400,
  invalid_page_size: 400,
  not_found: 404,
  internal: 500,
  // PostgreSQL gave the change up for conflicts with others longer than its retries last.
  database_busy: 503,
  cross_site_request: 403,
  // Customer sessions and sign-in.
  another_account: 403,
  sign_in_required: 401,
  session_ended: 401,
  invalid_provider: 400,
  provider_credential_missing: 401,
  google_nonce_mismatch: 401,
  sign_in_mismatch: 401,
  email_not_plain: 400,
  sign_in_token_incomplete: 401,
  email_not_verified: 401,
  sign_in_expired: 401,
  sign_in_unverifiable: 401,
  yandex_unreachable: 503,
  yandex_sign_in_invalid: 401,
  yandex_unconfirmed: 503,
  yandex_other_application: 401,
  yandex_no_email: 401,
  // Devices and VPN access.
  device_needs_subscription: 409,
  no_free_device_slot: 409,
  too_many_waiting_devices: 409,
  device_not_attached: 404,
  too_many_device_changes: 429,
  slot_needs_active_subscription: 409,
  slot_needs_saved_card: 409,
  renewal_in_progress: 409,
  slot_price_changed: 409,
  card_declined_insufficient_funds: 409,
  card_declined_unusable: 409,
  card_declined: 409,
  node_key_missing: 401,
  node_key_unknown: 401,
  node_key_rotated: 401,
  node_disabled: 403,
  node_agent_conflict: 409,
  invalid_agent_instance: 400,
  node_traffic_beyond_link: 400,
  node_busy: 429,
  invalid_node_name: 400,
  node_not_found: 404,
  node_name_taken: 409,
  // Published entries and probe agents.
  invalid_entry: 400,
  entry_not_found: 404,
  entry_order_incomplete: 400,
  invalid_probe_name: 400,
  probe_not_found: 404,
  probe_name_taken: 409,
  probe_key_missing: 401,
  probe_key_unknown: 401,
  probe_disabled: 403,
  probe_agent_conflict: 409,
  // Orders, payments and the saved card.
  order_not_found: 404,
  notification_unsigned: 401,
  notification_unreadable: 400,
  notification_invisible_character: 400,
  subscription_already_active: 409,
  purchase_already_paid: 409,
  receipt_not_found: 404,
  payment_service_unreachable: 503,
  payment_method_unavailable: 409,
  // The operator switched off every way of taking this purchase's money.
  payments_unavailable: 503,
  // An SBP order on a terminal that needs the payer's phone (SBP_PAYER_PHONE), without a valid one.
  payer_phone_required: 400,
  no_saved_card: 409,
  card_payment_pending: 409,
  payment_pending: 409,
  invalid_period: 400,
  invalid_tariff: 400,
  // Subscriptions and the cancel link.
  nothing_to_cancel: 409,
  no_card_to_renew_with: 409,
  not_resumable: 409,
  cancel_link_invalid: 401,
  already_cancelled: 409,
  account_has_no_subscription: 409,
  too_many_cancel_links: 429,
  // Promo codes.
  promo_unknown: 404,
  promo_already_used: 409,
  too_many_promo_codes: 429,
  promo_code_too_short: 400,
  promo_code_invalid_characters: 400,
  promo_type_unknown: 400,
  promo_discount_out_of_range: 400,
  promo_validity_out_of_range: 400,
  promo_code_taken: 409,
  // Operators and the panel.
  captcha_not_solved: 400,
  captcha_used: 400,
  sign_in_busy: 429,
  wrong_credentials: 401,
  operator_disabled: 401,
  too_many_sign_ins: 429,
  panel_sign_in_required: 401,
  operator_inactive: 401,
  panel_session_closed: 401,
  panel_session_expired: 401,
  refresh_token_invalid: 401,
  refresh_token_reused: 401,
  admin_only: 403,
  // Staff second factor (DESIGN §12).
  second_factor_enrolment_required: 403,
  second_factor_ticket_invalid: 401,
  wrong_second_factor_code: 401,
  wrong_password: 401,
  passkey_challenge_invalid: 401,
  passkey_not_accepted: 401,
  passkey_unknown: 401,
  passkey_name_invalid: 400,
  passkey_already_added: 409,
  too_many_passkeys: 409,
  passkey_not_found: 404,
  fresh_check_required: 403,
  totp_not_started: 409,
  totp_already_enabled: 409,
  last_second_factor: 409,
  payment_routes_incomplete: 400,
  payment_provider_not_configured: 409,
  operator_password_too_short: 400,
  invalid_username: 400,
  operator_exists: 409,
  operator_name_unknown: 404,
  operator_not_found: 404,
  cannot_disable_self: 409,
  cannot_change_own_role: 409,
  last_admin_disable: 409,
  last_admin_demote: 409,
  customer_not_found: 404,
  invalid_date_range: 400,
  date_range_reversed: 400,
  date_range_too_long: 400,
  // Demo mode, the API docs and analytics.
  invalid_demo_email: 400,
  clock_fixed: 409,
  gateway_credentials_wrong: 401,
  invalid_card_expiry: 400,
  sbp_qr_not_found: 404,
  sandbox_provider_down: 503,
  sandbox_payment_not_found: 404,
  docs_not_served: 404,
  docs_file_not_found: 404,
  unknown_event: 400,
  too_many_events: 429,
} as const satisfies Record<string, 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503>;

export type ErrorCode = keyof typeof errorStatus;

/**
 * What a message says besides its words (`{minutes: 12}`). A value that reads differently
 * per language (a date) is given as a function of the language it is worded in.
 */
export type ErrorValues = Record<string, string | number | ((language: Language) => string)>;

/** The catalogue key of a code's words; a code without words in core/i18n is a type error here. */
const wordsOf = (code: ErrorCode): TranslationKey => `errors.${code}`;

/** A refusal's message in `language`, from the catalogue, with its values filled in. */
export function refusalWords(code: ErrorCode, values: ErrorValues, language: Language): string {
  const filled = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      typeof value === "function" ? value(language) : value,
    ]),
  );
  return translator(language)(wordsOf(code), filled);
}

export type ErrorBody = {
  success: false;
  error: { code: ErrorCode; message: string };
};

export type AppErrorOptions = {
  /** For 429 and 503: when trying again makes sense, sent as Retry-After. */
  retryAfterSeconds?: number;
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly values: ErrorValues;
  readonly retryAfterSeconds: number | undefined;

  /** `message` is the English words (logs and the operator CLI read them); callers get their own language. */
  constructor(code: ErrorCode, values: ErrorValues = {}, options: AppErrorOptions = {}) {
    super(refusalWords(code, values, "en"));
    this.name = "AppError";
    this.code = code;
    this.values = values;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  /** The error as the API answers it, worded in `language`. */
  bodyIn(language: Language): ErrorBody {
    return {
      success: false,
      error: { code: this.code, message: refusalWords(this.code, this.values, language) },
    };
  }
}
