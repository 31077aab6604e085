import { t } from "elysia";

/** CloudPayments' `CustomerReceipt` (54-FZ), amounts in currency units. */
export const customerReceipt = t.Object({
  Items: t.Array(
    t.Object({
      label: t.String(),
      price: t.Number(),
      quantity: t.Number(),
      amount: t.Number(),
      vat: t.Union([t.Number(), t.Null()]),
      method: t.Number(),
      object: t.Number(),
    }),
  ),
  taxationSystem: t.Number(),
  email: t.Optional(t.String()),
  amounts: t.Object({ electronic: t.Number() }),
});

/** The widget's `data` (and a charge's `JsonData`): the receipt the gateway sends to the fiscal provider. */
export const receiptData = t.Object({ CloudPayments: t.Object({ CustomerReceipt: customerReceipt }) });

/**
 * The saved card (or SBP autopay): last four while one is saved; when it was removed, once
 * it is gone, and by whom: the customer, or the payer's bank that ended an SBP binding.
 */
export const card = t.Object({
  isSaved: t.Boolean(),
  lastFour: t.Nullable(t.String()),
  removedAt: t.Nullable(t.String()),
  removedBy: t.Nullable(t.Union([t.Literal("customer"), t.Literal("bank")])),
});

/** GET /api/payments/settings: the widget's script and Public ID, and the ways a purchase is paid. */
export const paymentSettings = t.Object({
  publicId: t.String(),
  widgetScriptUrl: t.String(),
  isSandbox: t.Boolean(),
  methods: t.Array(t.Union([t.Literal("card"), t.Literal("sbp")])),
  sbpNeedsPhone: t.Boolean(),
});
