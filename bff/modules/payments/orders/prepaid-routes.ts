import { Elysia } from "elysia";
import type { AppContext } from "../../../context";
import { requestLanguage } from "../../../platform/request-language";
import { customerErrors } from "../../../platform/schemas";
import type { customerAuthenticator } from "../../session/customer-auth";
import { prepaidAttached, prepaidBody, prepaidPreview } from "./order-model";
import { attachPrepaid } from "./prepaid-attach";
import { previewPrepaid } from "./prepaid-preview";

/** An anonymous purchase attached to the signed-in account from the cabinet, and what that would do. */
export function prepaidRoutes(context: AppContext, authenticate: ReturnType<typeof customerAuthenticator>) {
  return new Elysia()
    .post(
      "/shop/attachPrepaid",
      async ({ body, request, set }) => {
        const { customer } = await authenticate(request, body, set);
        return attachPrepaid(context, customer, body.prepaidToken, requestLanguage(request));
      },
      {
        body: prepaidBody,
        response: { 200: prepaidAttached, ...customerErrors },
        detail: {
          summary: "Attach an anonymous purchase to the signed-in account (after the customer confirms)",
          description:
            "The binding /api/register does with `prepaidToken`, from the cabinet with the session: a purchase the customer did not attach at sign-in. A refusal is an answer with its reason.",
        },
      },
    )
    .post(
      "/shop/prepaidPreview",
      async ({ body, request, set }) => {
        const { customer } = await authenticate(request, body, set);
        const language = requestLanguage(request);
        return previewPrepaid(
          context.database,
          customer.id,
          body.prepaidToken,
          language,
          context.clock.now(),
        );
      },
      {
        body: prepaidBody,
        response: { 200: prepaidPreview, ...customerErrors },
        detail: {
          summary: "What attaching an anonymous purchase to this account would do",
          description:
            "The binding dialog's text before the click: the period bought is added to the access the account has, or starts now, with the date access then ends (and, when extending, until when the account's extra device slots stay paid: slotsEnd); or why it would be refused.",
        },
      },
    );
}
