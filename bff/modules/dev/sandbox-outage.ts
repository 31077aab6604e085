import { t } from "elysia";
import { type PaymentProvider, paymentProviders, providerNames } from "../../../core/payment-methods";
import type { SandboxOutage } from "../../adapters/sandbox-outage";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";
import { oneOf } from "../../platform/schemas";

/** The outage switch of the provider's sandbox on this instance; 404 when it has none here. */
export function sandboxOutageOf(
  context: Pick<AppContext, "payments">,
  provider: PaymentProvider,
): SandboxOutage {
  const outage =
    provider === "cloudpayments"
      ? context.payments.sandbox?.outage
      : context.payments.yookassa?.sandbox?.outage;
  if (!outage) throw new AppError("not_found");
  return outage;
}

/** While the provider's sandbox is down, its calls and pages answer 503 and do nothing. */
export function refuseWhileDown(outage: SandboxOutage, provider: PaymentProvider): void {
  if (outage.isDown) throw new AppError("sandbox_provider_down", { provider: providerNames[provider] });
}

const outages = t.Object({
  cloudpayments: t.Boolean({ description: "Whether the CloudPayments sandbox is down" }),
  yookassa: t.Boolean({ description: "Whether the YooKassa sandbox is down (false when there is none)" }),
});

/**
 * A provider's outage on demand (DESIGN §11, demo only): the sandbox of `provider` answers
 * 503 to every call of its API (charges, look-ups, refunds, QRs) and to every payment on its
 * payer's pages, with nothing done, until it is brought back. What tests of failover and of
 * renewals through an outage switch, also against a real server process.
 */
export function sandboxOutageRoutes(context: Pick<AppContext, "config" | "payments">) {
  const states = () => ({
    cloudpayments: context.payments.sandbox?.outage.isDown ?? false,
    yookassa: context.payments.yookassa?.sandbox?.outage.isDown ?? false,
  });
  return demoOnly(context, "/outage")
    .get("", states, {
      response: { 200: outages },
      detail: { summary: "SANDBOX: which sandbox providers are down" },
    })
    .post(
      "",
      ({ body }) => {
        sandboxOutageOf(context, body.provider).set(body.isDown);
        return states();
      },
      {
        body: t.Object({ provider: oneOf(paymentProviders), isDown: t.Boolean() }),
        response: { 200: outages },
        detail: {
          summary: "SANDBOX: take a provider's sandbox down, or bring it back",
          description:
            "While down, every call of its API and every payment on its payer's pages (the widget's, the checkout page's, the SBP bank page's) answers 503 and does nothing, as a provider in an outage would. 404 when this instance has no sandbox of that provider.",
        },
      },
    );
}
