import { t } from "elysia";
import { receiptData } from "../model";

const currency = t.Union([t.Literal("RUB"), t.Literal("KZT")]);

/** POST /api/shop/order: the customer's own account, or an anonymous purchase's token. */
export const orderBody = t.Object({
  uid: t.Optional(t.String({ maxLength: 256 })),
  email: t.Optional(t.String({ maxLength: 320 })),
  prepaidToken: t.Optional(t.String({ minLength: 16, maxLength: 256 })),
  // As at register: a number written as text, as browser storage keeps it, is taken too.
  tariff: t.Numeric(),
  period: t.Numeric(),
  fullPrice: t.Optional(t.Boolean()),
  /** How it is paid: by card in the widget (the default), or by SBP's QR. */
  method: t.Optional(t.Union([t.Literal("card"), t.Literal("sbp")])),
  /** By SBP: allow renewals to charge the same account (SBP autopay). */
  saveMethod: t.Optional(t.Boolean()),
  /** By SBP where the terminal needs it (SBP_PAYER_PHONE=required): +7 and 10 digits, as typed. */
  payerPhone: t.Optional(t.String({ maxLength: 32 })),
});

export const widgetOptions = t.Object({
  publicId: t.String(),
  amount: t.Number(),
  currency,
  invoiceId: t.String(),
  accountId: t.String(),
  description: t.String(),
  email: t.Optional(t.String()),
  /** Whether this first payment is the 1-unit trial; without one, `reason` says why. */
  trial: t.Boolean(),
  reason: t.Optional(t.String()),
  /** The widget's `data`: the payment's 54-FZ receipt (DESIGN §13). */
  data: receiptData,
  /** An order paid by SBP: the bank's link (a phone opens it), its QR image (base64 PNG) and the QR's end. */
  sbp: t.Optional(t.Object({ qrUrl: t.String(), qrImage: t.Nullable(t.String()), expiresAt: t.String() })),
  /** Who takes it, when not CloudPayments' widget (the operator's routes chose another). */
  provider: t.Optional(t.Union([t.Literal("cloudpayments"), t.Literal("yookassa")])),
  /** Paid on the provider's own page (YooKassa by card): the screen goes there instead of opening the widget. */
  confirmationUrl: t.Optional(t.String()),
});

export const orderStatus = t.Object({
  /** `expired`: an SBP order whose QR ended unpaid (a new order makes a new one). */
  status: t.Union([
    t.Literal("pending"),
    t.Literal("completed"),
    t.Literal("declined"),
    t.Literal("refunded"),
    t.Literal("expired"),
  ]),
  /** Why the 1-unit trial was not given with this order, if it was not. */
  trialRefused: t.Optional(t.Union([t.Literal("card"), t.Literal("customer"), t.Literal("account")])),
  reason: t.Optional(t.String()),
  /** The same plan at its price, for the purchase screen's "order at the price" button. */
  fullPrice: t.Optional(t.Object({ amount: t.Number(), currency, tariff: t.Number(), period: t.Number() })),
});

/** The signed-in customer naming an anonymous purchase. */
export const prepaidBody = t.Object({
  uid: t.String({ maxLength: 256 }),
  email: t.String({ maxLength: 320 }),
  prepaidToken: t.String({ minLength: 16, maxLength: 256 }),
});

export const prepaidPreview = t.Object({
  /** What attaching does now: adds the bought period to the access the account has, starts it, or is refused. */
  outcome: t.Union([t.Literal("extends"), t.Literal("starts"), t.Literal("refused"), t.Literal("bound")]),
  days: t.Optional(t.Number()),
  months: t.Optional(t.Number()),
  until: t.Optional(t.String()),
  reason: t.Optional(t.String()),
  isRefundOnConfirm: t.Optional(t.Boolean()),
  /** Extra device slots the added time does not pay for: they end at `until` (DESIGN §13). */
  slotsEnd: t.Optional(t.Object({ count: t.Number(), until: t.String() })),
});

export const prepaidAttached = t.Object({
  bound: t.Boolean(),
  reason: t.Optional(t.String()),
  expirationDate: t.Union([t.String(), t.Null()]),
  subscriptionIsActive: t.Boolean(),
});
