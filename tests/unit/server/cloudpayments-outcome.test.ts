import { describe, expect, test } from "vitest";
import type { GatewayAnswer, GatewayTransaction } from "../../../bff/adapters/cloudpayments/client";
import { outcomeOf } from "../../../bff/modules/payments/providers/cloudpayments";

// DESIGN §6: only Model.Status tells a transaction's state. Success is false for a charge
// the payer's bank has not decided yet (an SBP autopay charge answers "Pending") as for a
// refused one, so reading it as a refusal dunned customers whose bank went on to pay.

const answerWith = (Status: string, Success = false): GatewayAnswer<GatewayTransaction> => ({
  Success,
  Message: Status === "Completed" ? null : Status,
  Model: {
    TransactionId: 4711,
    Amount: 150,
    Currency: "RUB",
    InvoiceId: "renewal-1-0-1",
    AccountId: "customer-1",
    Status,
    ReasonCode: Status === "Declined" ? 5051 : 0,
    Reason: Status === "Declined" ? "InsufficientFunds" : Status,
  },
});

describe("a CloudPayments answer as the provider interface states it", () => {
  test("Completed is paid", () => {
    expect(outcomeOf(answerWith("Completed", true), null)).toEqual({ status: "paid", transactionId: "4711" });
  });

  test.each(["Pending", "AwaitingAuthentication", "Authorized"])(
    "%s is pending: the bank has not decided, so nothing is declined or charged again",
    (status) => {
      expect(outcomeOf(answerWith(status), "Pending")).toEqual({ status: "pending", transactionId: "4711" });
    },
  );

  test.each(["Declined", "Cancelled"])("%s is declined with the model's reason", (status) => {
    expect(outcomeOf(answerWith(status), null)).toMatchObject({ status: "declined", transactionId: "4711" });
    expect(outcomeOf(answerWith("Declined"), null)).toMatchObject({
      reasonCode: 5051,
      reason: "InsufficientFunds",
    });
  });

  test("an answer without a model was refused before it became a transaction: its message is the reason", () => {
    expect(outcomeOf({ Success: false, Message: "Token not found" }, "Token not found")).toEqual({
      status: "declined",
      transactionId: null,
      reasonCode: null,
      reason: "Token not found",
    });
  });
});
