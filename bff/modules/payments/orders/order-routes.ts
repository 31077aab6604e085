import { Elysia, t } from "elysia";
import { currencyOf } from "../../../../core/languages";
import type { AppContext } from "../../../context";
import { requestLanguage } from "../../../platform/request-language";
import { customerErrors, errorResponse } from "../../../platform/schemas";
import type { customerAuthenticator } from "../../session/customer-auth";
import { orderBody, orderStatus, widgetOptions } from "./order-model";
import { orderStatusOf } from "./order-status";
import { createCustomerOrder, createPrepaidOrder } from "./orders";
import { payByOf } from "./sbp-order";

/** A first payment's order for the widget, and what became of it. */
export function orderRoutes(context: AppContext, authenticate: ReturnType<typeof customerAuthenticator>) {
  return new Elysia()
    .post(
      "/shop/order",
      async ({ body, request, set }) => {
        const { tariff, period } = body;
        const address = context.clientAddress(request);
        const language = requestLanguage(request);
        const isFullPrice = body.fullPrice === true;
        if (body.prepaidToken) {
          const currency = currencyOf(language);
          const payBy = await payByOf(context, body, currency);
          return createPrepaidOrder(
            context,
            body.prepaidToken,
            tariff,
            period,
            currency,
            address,
            language,
            isFullPrice,
            payBy,
          );
        }
        const { customer } = await authenticate(request, body, set);
        const payBy = await payByOf(context, body, customer.currency);
        return createCustomerOrder(context, customer, tariff, period, address, language, isFullPrice, payBy);
      },
      {
        body: orderBody,
        response: { 200: widgetOptions, ...customerErrors, 409: errorResponse, 503: errorResponse },
        detail: {
          summary: "Widget options of a first payment, decided by the server",
          description:
            "With the customer's session and {uid, email, tariff, period}, or anonymously with {prepaidToken, tariff, period}. `fullPrice: true` orders the plan at its price without the trial (a card that had one). `method: \"sbp\"` answers the same order with its SBP QR (`sbp`), `saveMethod` allowing renewals to charge that account; where the terminal needs the payer's phone (GET /api/payments/settings `sbpNeedsPhone`), `payerPhone` (+7 and 10 digits) or 400 `payer_phone_required`.",
        },
      },
    )
    .post(
      "/shop/orderStatus",
      ({ body, request }) => orderStatusOf(context, body.invoiceId, requestLanguage(request)),
      {
        body: t.Object({ invoiceId: t.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: orderStatus, 400: errorResponse, 404: errorResponse },
        detail: {
          summary: "What became of a first payment's order",
          description:
            "After the widget closes: whether the 1-unit trial was refused (the card or the customer had one), why, in the customer's language, and the plan at its price.",
        },
      },
    );
}
