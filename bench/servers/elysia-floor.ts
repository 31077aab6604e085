import { Elysia, t } from "elysia";
import { cabinet } from "../../bff/modules/profile";
import { customerIdentity } from "../../bff/platform/schemas";
import { baseSecurityHeaders } from "../../bff/security-headers";

/**
 * The framework's own floor for the cabinet route: Elysia with the product's security
 * headers, its body and response schemas and an async macro that reads the session cookie,
 * answering a fixed cabinet. No database, no cache, no session look-up: whatever
 * /api/profile costs beyond this is the product's own work.
 */
const answer = {
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
    traffic: { upload: 1_048_576, download: 73_400_320 },
  })),
  availableDevices: 0,
  card: { isSaved: false, lastFour: null, removedAt: null },
};

const session = new Elysia({ name: "floor-session" }).macro({
  customer: {
    resolve: async ({ request }) => {
      const cookie = request.headers.get("cookie") ?? "";
      if (!cookie.includes("kannt_session=")) throw new Error("no session");
      return { customer: { id: 1 } };
    },
  },
});

const app = new Elysia({ prefix: "/api" })
  .headers(baseSecurityHeaders({ publicUrl: undefined }))
  .use(session)
  .post("/profile", () => answer, {
    customer: true,
    body: t.Object(customerIdentity),
    response: { 200: cabinet },
  });
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  development: false,
  fetch: (request) => app.handle(request),
});
console.log(`READY ${server.port}`);
