/**
 * The payer's phone an SBP QR carries where the CloudPayments terminal's category requires
 * one (SBP_PAYER_PHONE=required): a Russian number, +7 and 10 digits, since SBP moves
 * roubles between Russian banks only. The screen and the server apply this one rule, so a
 * number the screen takes is never refused by the server.
 */

/** What a person may type between the digits: spaces, hyphens, dots and brackets. */
const separators = /[\s\-().\u00a0]/g;

/**
 * The number as the gateway takes it (`+79123456789`), or undefined when it is not +7 and
 * 10 digits. A leading 8 (the domestic way of writing +7) is read as +7.
 */
export function payerPhoneOf(input: string): string | undefined {
  const compact = input.replace(separators, "");
  const digits = /^(?:\+7|8)(\d{10})$/.exec(compact)?.[1];
  return digits ? `+7${digits}` : undefined;
}
