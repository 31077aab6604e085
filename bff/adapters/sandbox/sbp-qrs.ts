import type { Database } from "bun:sqlite";
import { company } from "../../../core/company";
import { toCurrencyUnits, toMinorUnits } from "../../../core/money";
import { ledgerTransactions } from "../../../db/queries/sandbox-ledger";
import { type LedgerSbpQrRow, ledgerSbpQrs } from "../../../db/queries/sandbox-ledger-sbp";
import type { Clock } from "../../platform/clock";
import { randomInteger } from "../../platform/random";
import { readReceipt } from "./receipt-check";
import { renderSbpQrImage } from "./sbp-qr-image";
import { invalidAmountMessage, isStorableAmount } from "./transaction-book";

/** POST /payments/qr/sbp/link and /image, as the real gateway takes them. */
export type SbpQrRequest = {
  Amount: number;
  Currency: string;
  InvoiceId: string;
  AccountId: string;
  Description: string;
  Email?: string;
  IpAddress?: string;
  JsonData?: unknown;
  SaveCard?: boolean;
  TtlMinutes?: number;
  Scheme?: string;
  PublicId?: string;
  /** The payer's phone, which some terminal categories require; kept with the QR. */
  Phone?: string;
};

/** How long a QR can be paid when the shop does not say, and the longest it may ask for (3 days). */
export const defaultQrTtlMinutes = 30;
const longestQrTtlMinutes = 4320;

const refused = (message: string) => ({ Success: false as const, Message: message, Model: undefined });

/** An id shaped like the SBP's own QR ids (NSPK): 32 capitals and digits. */
function providerQrId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let id = "AS";
  while (id.length < 32) id += alphabet[randomInteger(0, alphabet.length - 1)];
  return id;
}

/** Why the gateway refuses to make this QR, or undefined when it makes it. */
function problemOf(request: SbpQrRequest, amount: number): string | undefined {
  if (!isStorableAmount(amount)) return invalidAmountMessage;
  // SBP moves roubles between Russian banks and nothing else.
  if (request.Currency !== "RUB") return "SBP takes payments in RUB only.";
  if (request.Scheme !== undefined && request.Scheme !== "charge")
    return 'Scheme must be "charge": an SBP payment cannot be held and completed later.';
  const ttl = request.TtlMinutes ?? defaultQrTtlMinutes;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > longestQrTtlMinutes)
    return `TtlMinutes must be a whole number of minutes from 1 to ${longestQrTtlMinutes}.`;
  return undefined;
}

/**
 * The QRs the shop asks for: each names its order, whether the shop asks the payer to
 * allow autopay (SaveCard), when it expires on the bank's (test) clock, and the
 * transaction id its first payment will have. The payer's bank opens it at
 * `{bankPageOrigin}/dev-sbp?qr={ProviderQrId}`.
 */
export function createSbpQrs(ledger: Database, clock: Clock, settings: { bankPageOrigin: string }) {
  const urlOf = (id: string) => `${settings.bankPageOrigin}/dev-sbp?qr=${encodeURIComponent(id)}`;
  /** One ledger transaction: a reserved id is never left without its QR. */
  const store = ledger.transaction((qr: Omit<LedgerSbpQrRow, "state" | "attempts" | "transaction_id">) => {
    const transactionId = ledgerTransactions.reserveId(ledger);
    ledgerSbpQrs.insert(ledger, { ...qr, transaction_id: transactionId });
    return transactionId;
  });

  /** POST /payments/qr/sbp/link: the QR's link, for a phone to open the payer's bank app. */
  function open(request: SbpQrRequest) {
    const amount = toMinorUnits(request.Amount);
    const problem = problemOf(request, amount);
    if (problem) return refused(problem);
    const reading = readReceipt(request.JsonData, amount);
    if (!reading.isAccepted) return refused(reading.message);
    const now = clock.now();
    const id = providerQrId();
    const expiresAt = now + (request.TtlMinutes ?? defaultQrTtlMinutes) * 60_000;
    const transactionId = store({
      id,
      invoice_id: request.InvoiceId,
      account_id: request.AccountId,
      amount,
      currency: request.Currency,
      description: request.Description,
      email: request.Email ?? null,
      receipt: reading.receipt ? JSON.stringify(reading.receipt) : null,
      save_card: request.SaveCard ? 1 : 0,
      payer_phone: request.Phone ?? null,
      expires_at: expiresAt,
      created_at: now,
    });
    return {
      Success: true as const,
      Message: null,
      Model: {
        QrUrl: urlOf(id),
        ProviderQrId: id,
        TransactionId: transactionId,
        Amount: toCurrencyUnits(amount),
        Currency: request.Currency,
        InvoiceId: request.InvoiceId,
        AccountId: request.AccountId,
        ExpiresAt: new Date(expiresAt).toISOString(),
      },
    };
  }

  return {
    open,

    /** POST /payments/qr/sbp/image: the same QR, and its image for a desktop's screen. */
    async openWithImage(request: SbpQrRequest) {
      const answer = open(request);
      if (!answer.Success) return answer;
      return { ...answer, Model: { ...answer.Model, QrImage: await renderSbpQrImage(answer.Model.QrUrl) } };
    },

    byId(id: string) {
      return ledgerSbpQrs.byId(ledger, id) ?? undefined;
    },

    /** What the payer's bank app shows before the payer decides (the /dev-sbp page). */
    describe(qr: LedgerSbpQrRow) {
      return {
        qr: qr.id,
        merchant: company.productName,
        amount: toCurrencyUnits(qr.amount),
        currency: qr.currency,
        description: qr.description,
        expiresAt: new Date(qr.expires_at).toISOString(),
        isExpired: clock.now() >= qr.expires_at,
        asksAutopay: qr.save_card === 1,
        payerPhone: qr.payer_phone,
        state: qr.state,
        attempts: qr.attempts,
      };
    },
  };
}

export type SbpQrs = ReturnType<typeof createSbpQrs>;
