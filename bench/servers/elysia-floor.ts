import { Elysia, t } from "elysia";
import { cabinet } from "../../bff/modules/profile";
import { sessionToken } from "../../bff/modules/session/session-cookie";
import { errorHandler } from "../../bff/platform/error-handler";
import { AppError } from "../../bff/platform/errors";
import { maxBodyBytes } from "../../bff/platform/input-guard";
import { customerErrors, customerIdentity } from "../../bff/platform/schemas";
import { baseSecurityHeaders } from "../../bff/security-headers";

/**
 * The framework's floor for the cabinet call (DESIGN §10): what every POST /api/profile
 * must have, and nothing else. Elysia under /api with the product's security headers (for
 * the same PUBLIC_URL), its error handler (a refusal is answered as DESIGN §9 says), the
 * route's body schema and its whole response schema, and a session macro that reads the
 * session cookie as the product does and may wait (a session is looked up), answering a
 * fixed cabinet. No session look-up, cache, cross-site or own-body check, input guard,
 * metrics or other hooks: whatever /api/profile costs beyond this is the product's own work.
 */
const answer: typeof cabinet.static = {
  success: true as const,
  userInfo: {
    expirationDate: "2026-12-17T01:07:18.651Z",
    subscriptionIsActive: true,
    subscriptionStatus: "ACTIVE",
    nextTransactionDate: "2026-12-17T01:07:18.651Z",
    amount: 150,
    endedAt: null,
  },
  devices: [1, 2].map((id) => ({
    id,
    deviceId: `dev-1-${id}`,
    deviceName: `Pixel ${id + 6}`,
    platform: "android",
    created: "2026-11-21T01:07:18.651Z",
    firstActivation: "2026-11-21T01:07:18.651Z",
    isActive: true,
    pendingUntil: null,
    traffic: { upload: 0, download: 0 },
  })),
  availableDevices: 0,
  card: { isSaved: false, lastFour: null, removedAt: null, removedBy: null },
};

const session = new Elysia({ name: "floor-session" }).macro({
  customer: {
    resolve: async ({ request }) => {
      if (!sessionToken(request)) throw new AppError("sign_in_required");
      return { customer: { id: 1 } };
    },
  },
});

const app = new Elysia({ prefix: "/api" })
  .headers(baseSecurityHeaders({ publicUrl: process.env.PUBLIC_URL }))
  .use(errorHandler)
  .use(session)
  .post("/profile", () => answer, {
    customer: true,
    body: t.Object(customerIdentity),
    response: { 200: cabinet, ...customerErrors },
  });
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  development: false,
  maxRequestBodySize: maxBodyBytes,
  fetch: (request) => app.handle(request),
});
console.log(`READY ${server.port}`);
