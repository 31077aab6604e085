import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { takeNotification } from "../../../../bff/modules/payments/notifications/notification-intake";
import { checkCodes } from "../../../../bff/modules/payments/notifications/webhooks";
import { makeTestApp } from "../../../helpers/app";

const { context } = await makeTestApp();
const bytes = (text: string) => new TextEncoder().encode(text);
const signed = (body: Uint8Array, contentType = "application/json") =>
  new Headers({
    "content-type": contentType,
    "content-hmac": createHmac("sha256", context.config.cloudPaymentsApiSecret).update(body).digest("base64"),
  });
const counted = async (kind: string, result: string) =>
  (await context.metrics.notifications.get()).values.find(
    (value) => value.labels.kind === kind && value.labels.result === result,
  )?.value ?? 0;

describe("notification intake, called with the bytes and headers alone", () => {
  test("bytes the gateway did not sign are refused before they are read, and counted", async () => {
    const before = await counted("pay", "refused");
    const body = bytes(JSON.stringify({ InvoiceId: "first-1" }));
    await expect(takeNotification(context, "pay", body, new Headers())).rejects.toMatchObject({
      code: "notification_unsigned",
    });
    expect(await counted("pay", "refused")).toBe(before + 1);
  });

  test("signed bytes that are no notification are refused as unreadable", async () => {
    const body = bytes("not a notification");
    await expect(takeNotification(context, "check", body, signed(body, "text/plain"))).rejects.toMatchObject({
      code: "notification_unreadable",
    });
  });

  test("a Check for an invoice nobody ordered answers the gateway's wrong-invoice code", async () => {
    const body = bytes(
      JSON.stringify({
        TransactionId: 1,
        Amount: 1,
        Currency: "RUB",
        InvoiceId: "first-999999",
        AccountId: "customer-999999",
        DateTime: "2026-01-01 00:00:00",
        Status: "Completed",
        OperationType: "Payment",
      }),
    );
    const before = await counted("check", `code_${checkCodes.wrongInvoice}`);
    expect(await takeNotification(context, "check", body, signed(body))).toEqual({
      code: checkCodes.wrongInvoice,
    });
    expect(await counted("check", `code_${checkCodes.wrongInvoice}`)).toBe(before + 1);
  });
});
