import { t } from "elysia";
import type { SbpQrRequest } from "../../adapters/sandbox/sbp-qrs";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";
import { errorResponse } from "../../platform/schemas";
import { type GatewayGuard, jsonData } from "./sandbox-gateway-guard";
import { refuseWhileDown, sandboxOutageOf } from "./sandbox-outage";

/** The body of both QR calls, as the real gateway takes it. */
const qrRequest = t.Object({
  // Any number: an amount the bank cannot take is refused in its answer, as charges are.
  Amount: t.Number(),
  Currency: t.String(),
  InvoiceId: t.String({ maxLength: 128 }),
  AccountId: t.String({ maxLength: 256 }),
  Description: t.String({ maxLength: 512 }),
  Email: t.Optional(t.String({ maxLength: 320 })),
  IpAddress: t.Optional(t.String({ maxLength: 64 })),
  JsonData: jsonData,
  SaveCard: t.Optional(t.Boolean()),
  TtlMinutes: t.Optional(t.Number()),
  Scheme: t.Optional(t.String({ maxLength: 16 })),
  PublicId: t.Optional(t.String({ maxLength: 128 })),
  Phone: t.Optional(t.String({ maxLength: 32 })),
});

/**
 * SBP on the sandbox gateway's server API (under /api/dev/sandbox/cloudpayments, HTTP
 * Basic like every call there): a QR's link for a phone, or its link and image for a
 * desktop. Either answers `Model.TransactionId`, the id the QR's first payment will have.
 */
export function sbpGatewayRoutes(context: Pick<AppContext, "config">, guarded: GatewayGuard) {
  return demoOnly(context, "/payments/qr/sbp")
    .post(
      "/link",
      guarded((sandbox, body: SbpQrRequest) => sandbox.sbp.openQr(body)),
      {
        body: qrRequest,
        detail: {
          summary: "SANDBOX: an SBP QR's link",
          description:
            "Model: QrUrl (the bank page /dev-sbp?qr=…), ProviderQrId, TransactionId, Amount, Currency, InvoiceId, AccountId, ExpiresAt (TtlMinutes after now on the test clock; 30 by default, 1 to 4320).",
        },
      },
    )
    .post(
      "/image",
      guarded((sandbox, body: SbpQrRequest) => sandbox.sbp.openQrWithImage(body)),
      {
        body: qrRequest,
        detail: {
          summary: "SANDBOX: an SBP QR's link and image",
          description: "As /payments/qr/sbp/link, plus Model.QrImage: the QR as base64 PNG, 256 px.",
        },
      },
    );
}

/**
 * The demo bank's page serves both sandboxes' QRs: CloudPayments' and YooKassa's (each
 * knows its own ids). Neither here (an instance whose banks are elsewhere): no bank page.
 */
function sbpBanks(context: Pick<AppContext, "payments">) {
  const cloudPayments = context.payments.sandbox?.sbp;
  const yooKassa = context.payments.yookassa?.sandbox;
  if (!cloudPayments && !yooKassa) throw new AppError("not_found");
  return { cloudPayments, yooKassa };
}

/**
 * The payer's side of SBP (under /api/dev/sandbox): what the bank page (/dev-sbp) shows of a
 * QR, paying or declining it as the payer's bank app would, and a wait for the autopay
 * charges still to be settled, so tests need not guess how long that takes.
 */
export function sbpControlRoutes(context: Pick<AppContext, "config" | "payments">) {
  /** The holds on the banks' decisions (POST /sbp/hold), released together. */
  let releases: (() => void)[] = [];
  const qrOf = (qr: string) => {
    const { cloudPayments, yooKassa } = sbpBanks(context);
    const described = cloudPayments?.describeQr(qr) ?? yooKassa?.describeQr(qr);
    if (!described) throw new AppError("sbp_qr_not_found");
    return described;
  };
  return (
    demoOnly(context, "/sbp")
      // A page opened without a QR names none the bank has: the same refusal as an unknown one.
      .get("/qr", ({ query }) => qrOf(query.qr ?? ""), {
        query: t.Object({ qr: t.Optional(t.String({ maxLength: 64 })) }),
        detail: {
          summary: "SANDBOX: an SBP QR as the payer's bank shows it",
          description:
            "The merchant, amount, currency, description, expiry (isExpired on the test clock), whether the shop asks to allow autopay, its state and how many attempts were made to pay it.",
        },
      })
      .post(
        "/pay",
        async ({ body }) => {
          const { cloudPayments, yooKassa } = sbpBanks(context);
          // The payer's bank app reaches the provider that made the QR: not while it is down.
          if (cloudPayments?.describeQr(body.qr))
            refuseWhileDown(sandboxOutageOf(context, "cloudpayments"), "cloudpayments");
          else if (yooKassa?.describeQr(body.qr))
            refuseWhileDown(sandboxOutageOf(context, "yookassa"), "yookassa");
          const answer = (await cloudPayments?.payQr(body)) ?? (await yooKassa?.payQr(body));
          if (!answer) throw new AppError("sbp_qr_not_found");
          return answer;
        },
        {
          body: t.Object({
            qr: t.String({ maxLength: 64 }),
            outcome: t.Optional(t.Union([t.Literal("pay"), t.Literal("decline")])),
            account: t.Optional(
              t.Union([
                t.Literal("ok"),
                t.Literal("declinesLater"),
                t.Literal("revoked"),
                t.Literal("silent"),
              ]),
            ),
          }),
          detail: {
            summary: "SANDBOX: pay or decline an SBP QR, as the payer's bank app would",
            description:
              "pay: Check, then Pay with PaymentMethod Sbp (and a Token when the QR asked SaveCard; `account` says how that binding's later charges go: ok, declinesLater, revoked, silent). decline: Fail with ReasonCode 5051. A QR can be paid more than once; an expired one is refused with nothing booked. A YooKassa sandbox QR: its payment succeeds (saving the SBP account when asked) or is canceled (general_decline), once; `transactionId` is then the YooKassa payment's id.",
          },
        },
      )
      .post(
        "/hold",
        ({ body }) => {
          const { cloudPayments, yooKassa } = sbpBanks(context);
          if (body.isHeld && releases.length === 0)
            releases = [cloudPayments?.holdDecisions(), yooKassa?.holdDecisions()].filter(
              (release) => release !== undefined,
            );
          if (!body.isHeld) for (const release of releases.splice(0)) release();
          return { isHeld: releases.length > 0 };
        },
        {
          body: t.Object({ isHeld: t.Boolean() }),
          response: { 200: t.Object({ isHeld: t.Boolean() }), 400: errorResponse, 404: errorResponse },
          detail: {
            summary: "SANDBOX: hold the payers' banks' decisions on SBP autopay charges, or let them go",
            description:
              "While held, every SBP autopay charge stays Pending at both providers (no Pay or Fail is sent), so the shop can be seen with charges it has only been told are pending; released, they are decided as each payer's account says. /sbp/settled waits for the release.",
          },
        },
      )
      .get(
        "/settled",
        async () => {
          const { cloudPayments, yooKassa } = sbpBanks(context);
          await cloudPayments?.settled();
          await yooKassa?.settled();
          return { isSettled: true };
        },
        {
          detail: {
            summary:
              "SANDBOX: wait for every SBP autopay charge answered Pending to be settled, and every SBP refund accepted to be done",
            description:
              "Answers once each has its outcome in the ledger and its notification (Pay, Fail or Refund) sent.",
          },
        },
      )
  );
}
