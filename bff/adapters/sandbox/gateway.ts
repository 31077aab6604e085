import type { Database } from "bun:sqlite";
import type { Clock } from "../../platform/clock";
import type { HttpClient } from "../../platform/http-client";
import { randomToken } from "../../platform/random";
import { fromMinorUnits } from "../cloudpayments/notification";
import { signBody } from "../cloudpayments/signature";
import { cardOutcome, normalizeCard } from "./cards";

type TransactionRow = {
  id: number;
  kind: "payment" | "refund";
  invoice_id: string;
  account_id: string;
  amount: number;
  currency: string;
  status: "Completed" | "Declined";
  token: string | null;
  card_last_four: string | null;
  reason_code: number | null;
  reason: string | null;
  refund_of: number | null;
  created_at: number;
};

type OrderRow = {
  invoice_id: string;
  amount: number;
  currency: string;
  account_id: string;
  description: string;
  email: string | null;
};

export type SandboxSettings = { apiSecret: string; notificationUrl: string };

/** The CloudPayments model of a transaction, as the API and the notifications describe it. */
function model(row: TransactionRow) {
  return {
    TransactionId: row.id,
    Amount: row.amount / 100,
    Currency: row.currency,
    InvoiceId: row.invoice_id,
    AccountId: row.account_id,
    Status: row.status,
    StatusCode: row.status === "Completed" ? 3 : 5,
    ReasonCode: row.reason_code ?? 0,
    Reason: row.reason ?? "Approved",
    CardLastFour: row.card_last_four ?? undefined,
    Token: row.token ?? undefined,
    CreatedDateIso: new Date(row.created_at).toISOString(),
    TestMode: true,
  };
}

/**
 * The ledger holds whole minor units in an INTEGER column; an amount such as 1e308
 * (Infinity once in kopecks) or a negative one is refused, as the real gateway refuses it,
 * instead of failing the insert.
 */
const isStorableAmount = (minorUnits: number) => Number.isSafeInteger(minorUnits) && minorUnits >= 0;
const invalidAmountMessage = "Amount must be a sum of money of 0 or more.";

/**
 * The embedded sandbox gateway: a loopback bank with the gateway's API, test cards and
 * signed notifications (DESIGN §6). It knows nothing of our database.
 */
export function createSandboxGateway(
  ledger: Database,
  clock: Clock,
  http: HttpClient,
  settings: SandboxSettings,
) {
  const insertTransaction = ledger.prepare<
    TransactionRow,
    [
      string,
      string,
      string,
      number,
      string,
      string,
      string | null,
      string | null,
      number | null,
      string | null,
      number | null,
      number,
    ]
  >(
    `INSERT INTO transactions (kind, invoice_id, account_id, amount, currency, status, token, card_last_four,
       reason_code, reason, refund_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  );
  const record = (
    kind: "payment" | "refund",
    order: { invoice_id: string; account_id: string; amount: number; currency: string },
    status: "Completed" | "Declined",
    extra: {
      token?: string | null;
      cardLastFour?: string | null;
      reasonCode?: number;
      reason?: string;
      refundOf?: number;
    } = {},
  ): TransactionRow => {
    const row = insertTransaction.get(
      kind,
      order.invoice_id,
      order.account_id,
      order.amount,
      order.currency,
      status,
      extra.token ?? null,
      extra.cardLastFour ?? null,
      extra.reasonCode ?? null,
      extra.reason ?? null,
      extra.refundOf ?? null,
      clock.now(),
    );
    if (!row) throw new Error("ledger insert failed");
    return row;
  };

  /** Posts a signed, form-urlencoded notification; returns the merchant's answer code. */
  async function notify(
    kind: "check" | "pay" | "fail" | "refund",
    fields: Record<string, string | number | undefined>,
  ) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields))
      if (value !== undefined) form.set(name, String(value));
    const body = form.toString();
    const response = await http.fetch(
      new Request(`${settings.notificationUrl}/${kind}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-hmac": signBody(settings.apiSecret, body),
          "x-content-hmac": signBody(settings.apiSecret, decodeURIComponent(body.replace(/\+/g, " "))),
        },
        body,
      }),
    );
    const answer = (await response.json().catch(() => ({}))) as { code?: number };
    return response.ok ? (answer.code ?? 13) : 13;
  }

  const notificationFields = (row: TransactionRow, email: string | null | undefined) => ({
    TransactionId: row.id,
    Amount: fromMinorUnits(row.amount),
    Currency: row.currency,
    DateTime: new Date(row.created_at).toISOString(),
    CardLastFour: row.card_last_four ?? undefined,
    Status: row.status,
    OperationType: row.kind === "refund" ? "Refund" : "Payment",
    InvoiceId: row.invoice_id,
    AccountId: row.account_id,
    Email: email ?? undefined,
    Token: row.token ?? undefined,
    Reason: row.reason ?? "Approved",
    ReasonCode: row.reason_code ?? 0,
    TestMode: 1,
  });

  return {
    ledger,

    /** The order the widget is opened for (what the widget would send the gateway). */
    registerOrder(order: OrderRow): void {
      ledger
        .query(
          `INSERT INTO orders (invoice_id, amount, currency, account_id, description, email, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (invoice_id) DO UPDATE SET amount = excluded.amount,
           currency = excluded.currency, account_id = excluded.account_id, description = excluded.description`,
        )
        .run(
          order.invoice_id,
          order.amount,
          order.currency,
          order.account_id,
          order.description,
          order.email,
          clock.now(),
        );
    },

    /** What the widget does on "Pay": Check, then charge the card, then Pay or Fail. */
    async payWithCard(invoiceId: string, cardNumber: string, amountOverride?: number) {
      const order = ledger
        .query<OrderRow, [string]>("SELECT * FROM orders WHERE invoice_id = ?")
        .get(invoiceId);
      if (!order) return { success: false, message: "The sandbox has no order with this invoice id." };
      if (amountOverride !== undefined && !isStorableAmount(amountOverride))
        return { success: false, message: invalidAmountMessage };
      const card = normalizeCard(cardNumber);
      const attempt = { ...order, amount: amountOverride ?? order.amount };
      const outcome = cardOutcome(card, true);
      const pending = {
        TransactionId: 0,
        Amount: fromMinorUnits(attempt.amount),
        Currency: attempt.currency,
        InvoiceId: attempt.invoice_id,
        AccountId: attempt.account_id,
        Email: order.email ?? undefined,
        CardLastFour: card.slice(-4),
        TestMode: 1,
      };
      const checkCode = await notify("check", pending);
      if (checkCode !== 0) {
        const row = record("payment", attempt, "Declined", {
          cardLastFour: card.slice(-4),
          reasonCode: 5204,
          reason: `Check answered ${checkCode}`,
        });
        return {
          success: false,
          transactionId: row.id,
          message: `The shop refused the payment (code ${checkCode}).`,
          checkCode,
        };
      }
      if (!outcome.isApproved) {
        const row = record("payment", attempt, "Declined", {
          cardLastFour: card.slice(-4),
          reasonCode: outcome.reasonCode,
          reason: outcome.reason,
        });
        await notify("fail", notificationFields(row, order.email));
        return {
          success: false,
          transactionId: row.id,
          message: outcome.reason,
          reasonCode: outcome.reasonCode,
        };
      }
      const token = `tk_${randomToken(18)}`;
      ledger
        .query("INSERT INTO cards (token, card_number, account_id, created_at) VALUES (?, ?, ?, ?)")
        .run(token, card, attempt.account_id, clock.now());
      const row = record("payment", attempt, "Completed", { token, cardLastFour: card.slice(-4) });
      await notify("pay", notificationFields(row, order.email));
      return { success: true, transactionId: row.id, message: null };
    },

    /** POST /payments/tokens/charge: charges a saved card. Like the real gateway, it does not dedupe by invoice. */
    async chargeToken(request: {
      Amount: number;
      Currency: string;
      AccountId: string;
      Token: string;
      InvoiceId: string;
    }) {
      const card = ledger
        .query<{ card_number: string }, [string]>("SELECT card_number FROM cards WHERE token = ?")
        .get(request.Token);
      if (!card) return { Success: false, Message: "Token not found", Model: undefined };
      const order = {
        invoice_id: request.InvoiceId,
        account_id: request.AccountId,
        amount: Math.round(request.Amount * 100),
        currency: request.Currency,
      };
      if (!isStorableAmount(order.amount))
        return { Success: false, Message: invalidAmountMessage, Model: undefined };
      const outcome = cardOutcome(card.card_number, false);
      const row = outcome.isApproved
        ? record("payment", order, "Completed", {
            token: request.Token,
            cardLastFour: card.card_number.slice(-4),
          })
        : record("payment", order, "Declined", {
            token: request.Token,
            cardLastFour: card.card_number.slice(-4),
            reasonCode: outcome.reasonCode,
            reason: outcome.reason,
          });
      await notify(row.status === "Completed" ? "pay" : "fail", notificationFields(row, null));
      return {
        Success: row.status === "Completed",
        Message: row.status === "Completed" ? null : row.reason,
        Model: model(row),
      };
    },

    /** POST /payments/refund. */
    async refund(request: { TransactionId: number; Amount: number }) {
      const original = ledger
        .query<TransactionRow, [number]>("SELECT * FROM transactions WHERE id = ? AND kind = 'payment'")
        .get(request.TransactionId);
      if (original?.status !== "Completed")
        return { Success: false, Message: "Transaction not found or not completed", Model: undefined };
      const refunded =
        ledger
          .query<{ total: number }, [number]>(
            "SELECT COALESCE(SUM(amount), 0) AS total FROM transactions WHERE refund_of = ?",
          )
          .get(original.id)?.total ?? 0;
      const amount = Math.round(request.Amount * 100);
      if (!isStorableAmount(amount))
        return { Success: false, Message: invalidAmountMessage, Model: undefined };
      if (amount <= 0 || refunded + amount > original.amount)
        return { Success: false, Message: "Refund amount exceeds the payment", Model: undefined };
      const row = record("refund", { ...original, amount }, "Completed", {
        refundOf: original.id,
        cardLastFour: original.card_last_four,
      });
      await notify("refund", {
        ...notificationFields(row, null),
        PaymentTransactionId: original.id,
        TransactionId: row.id,
      });
      return { Success: true, Message: null, Model: model(row) };
    },

    /** POST /v2/payments/find: the latest transaction for an invoice. */
    find(invoiceId: string) {
      const row = ledger
        .query<TransactionRow, [string]>(
          "SELECT * FROM transactions WHERE invoice_id = ? AND kind = 'payment' ORDER BY id DESC LIMIT 1",
        )
        .get(invoiceId);
      return row
        ? { Success: true, Message: null, Model: model(row) }
        : { Success: false, Message: "Not found", Model: undefined };
    },

    /** POST /payments/list: transactions of one day (UTC). */
    list(date: string) {
      const start = Date.parse(`${date}T00:00:00Z`);
      const rows = ledger
        .query<TransactionRow, [number, number]>(
          "SELECT * FROM transactions WHERE created_at >= ? AND created_at < ? ORDER BY id",
        )
        .all(start, start + 86_400_000);
      return { Success: true, Message: null, Model: rows.map(model) };
    },

    /** Everything the bank did for an account, for tests and the demo (GET /api/dev/sandbox/ledger). */
    entries(accountId?: string) {
      const rows = accountId
        ? ledger
            .query<TransactionRow, [string]>("SELECT * FROM transactions WHERE account_id = ? ORDER BY id")
            .all(accountId)
        : ledger.query<TransactionRow, []>("SELECT * FROM transactions ORDER BY id").all();
      return rows.map((row) => ({
        transactionId: String(row.id),
        invoiceId: row.invoice_id,
        accountId: row.account_id,
        amount: row.amount / 100,
        currency: row.currency,
        status: row.status,
        kind: row.kind,
      }));
    },
  };
}

export type SandboxGateway = ReturnType<typeof createSandboxGateway>;
