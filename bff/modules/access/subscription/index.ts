import { Elysia } from "elysia";
import type { AppContext } from "../../../context";
import { answerFailureOf } from "../../../platform/error-handler";
import { pathOf } from "../../../platform/url-path";
import { isSubscriptionFormat, subscriptionFormats } from "./client-format";
import { deviceReportOf } from "./device-report";
import { subscriptionAnswer } from "./subscription-answer";

/** The subscription URL's path: `{SUBSCRIPTION_URL}/sub/{token}`, outside /api (DESIGN §8). */
export const subscriptionPathPrefix = "/sub/";

/** randomToken(24) is 32 base64url characters; anything unlike a token is not looked up. */
const tokenPattern = /^[A-Za-z0-9_-]{16,128}$/;

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  });

async function answer(context: AppContext, request: Request, token: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD")
    return plain(405, "Only GET reads a subscription.", { allow: "GET, HEAD" });
  if (!tokenPattern.test(token)) return plain(404, "No such subscription.");
  const url = new URL(request.url);
  const format = url.searchParams.get("format");
  if (format !== null && !isSubscriptionFormat(format))
    return plain(400, `Unknown format "${format.slice(0, 32)}": use ${subscriptionFormats.join(", ")}.`);
  const found = await subscriptionAnswer(context, {
    token,
    userAgent: request.headers.get("user-agent"),
    format: format ?? undefined,
    report: deviceReportOf(request.headers),
    isFetch: request.method === "GET",
    host: url.host,
  });
  if (!found) return plain(404, "No such subscription.");
  return new Response(request.method === "HEAD" ? null : found.body, { status: 200, headers: found.headers });
}

/**
 * `GET /sub/{token}` for the client apps. The app's routes all live under /api, so this
 * answers before routing: a request hook that takes only its own path.
 */
export function subscriptionUrlModule(context: AppContext) {
  // The hook's source must not read as asynchronous to Elysia (a returned call, or the words
  // for waiting, comments included): it would then wait on the hook in every request of the
  // app, the cabinet's too. The reply is returned as a value, which Elysia answers all the
  // same once it settles; a failure is answered here as the error handler would, since
  // Elysia's own catch does not see it. tests/bff/api/cabinet-hot-path.test.ts holds this.
  return new Elysia().onRequest(subscriptionHook(context));
}

function subscriptionHook(context: AppContext) {
  return ({ request }: { request: Request }) => {
    const url = request.url;
    let reply: Promise<Response> | undefined;
    if (url.includes(subscriptionPathPrefix)) {
      const path = pathOf(url);
      if (path.startsWith(subscriptionPathPrefix))
        reply = answer(context, request, path.slice(subscriptionPathPrefix.length)).catch(
          answerFailureOf(request),
        );
    }
    return reply;
  };
}
