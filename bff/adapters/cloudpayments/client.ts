import type { HttpClient } from "../../platform/http-client";
import { type CustomerReceipt, receiptJsonData } from "./receipt";

export type GatewayTransaction = {
  TransactionId: number | string;
  Amount: number;
  Currency: string;
  InvoiceId: string;
  AccountId: string;
  Status: string;
  StatusCode?: number;
  ReasonCode?: number;
  Reason?: string;
  CardFirstSix?: string;
  CardLastFour?: string;
  /** "MM/YY". */
  CardExpDate?: string;
  Token?: string;
};

/** An SBP QR the gateway made for an order: the link a phone opens, and the QR image of it. */
export type GatewayQr = {
  QrUrl: string;
  /** Base64 PNG, from /payments/qr/sbp/image only. */
  QrImage?: string;
  TransactionId: number | string;
  ProviderQrId?: string;
  ExpiresAt?: string;
};

export type GatewayAnswer<Model> = { Success: boolean; Message: string | null; Model?: Model };

export type GatewaySettings = { apiUrl: string; publicId: string; apiSecret: string };

/**
 * The gateway turned a call away for its rate limit (HTTP 429) before doing anything with
 * it, so the same call may be sent again once it allows: unlike a timeout or a 5xx, whose
 * outcome is unknown and must be looked up.
 */
export class GatewayBusyError extends Error {
  constructor(
    path: string,
    /** From Retry-After (seconds or an HTTP date), when the gateway said. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(`gateway ${path} answered HTTP 429`);
    this.name = "GatewayBusyError";
  }
}

function retryAfterMsOf(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** One call of the gateway's server API: HTTP Basic (Public ID : API secret), a JSON body. */
export function gatewayCaller(settings: GatewaySettings, http: HttpClient) {
  const authorization = `Basic ${Buffer.from(`${settings.publicId}:${settings.apiSecret}`).toString("base64")}`;
  return async function call<Model>(
    path: string,
    body: unknown,
    requestId?: string,
  ): Promise<GatewayAnswer<Model>> {
    const headers: Record<string, string> = { authorization, "content-type": "application/json" };
    if (requestId) headers["x-request-id"] = requestId;
    const response = await http.fetch(
      new Request(`${settings.apiUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
    );
    if (response.status === 429)
      throw new GatewayBusyError(path, retryAfterMsOf(response.headers.get("retry-after")));
    if (!response.ok) throw new Error(`gateway ${path} answered HTTP ${response.status}`);
    return (await response.json()) as GatewayAnswer<Model>;
  };
}

/**
 * The CloudPayments server API: answers `{Success, Message, Model}` where only
 * Model.Status tells the outcome. Pointed at the sandbox by default; the same code
 * talks to the real gateway.
 */
export function createGatewayClient(settings: GatewaySettings, http: HttpClient) {
  const call = gatewayCaller(settings, http);
  return {
    publicId: settings.publicId,
    /** Every charge carries its 54-FZ receipt (DESIGN §13). */
    chargeToken: (
      charge: {
        Amount: number;
        Currency: string;
        AccountId: string;
        Token: string;
        InvoiceId: string;
        Description: string;
      },
      receipt: CustomerReceipt,
    ) =>
      call<GatewayTransaction>(
        "/payments/tokens/charge",
        { ...charge, TrInitiatorCode: 0, PaymentScheduled: 1, JsonData: receiptJsonData(receipt) },
        charge.InvoiceId,
      ),
    /** The receipt of a refund states what goes back (a "возврат прихода" receipt). */
    refund: (transactionId: string, amount: number, receipt: CustomerReceipt) =>
      call<GatewayTransaction>("/payments/refund", {
        TransactionId: Number(transactionId),
        Amount: amount,
        JsonData: receiptJsonData(receipt),
      }),
    /**
     * An SBP QR for an order (`/payments/qr/sbp/image`: the link and its image). Its outcome
     * comes only by the Pay or Fail notification. `SaveCard` asks the payer's bank to allow
     * later charges of the same account (SBP autopay), answered with a Token in Pay.
     */
    sbpQr: (
      order: {
        Amount: number;
        Currency: string;
        InvoiceId: string;
        AccountId: string;
        Description: string;
        Email?: string;
        IpAddress?: string;
        SaveCard: boolean;
        TtlMinutes: number;
        /** The payer's phone, where the terminal's category requires it. */
        Phone?: string;
      },
      receipt: CustomerReceipt,
    ) =>
      call<GatewayQr>(
        "/payments/qr/sbp/image",
        { ...order, Scheme: "charge", PublicId: settings.publicId, JsonData: receiptJsonData(receipt) },
        order.InvoiceId,
      ),
    find: (invoiceId: string) => call<GatewayTransaction>("/v2/payments/find", { InvoiceId: invoiceId }),
    list: (date: string, timeZone = "UTC") =>
      call<GatewayTransaction[]>("/payments/list", { Date: date, TimeZone: timeZone }),
  };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
