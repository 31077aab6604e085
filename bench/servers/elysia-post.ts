import { Elysia, t } from "elysia";

// A bare Elysia route with a JSON body schema: the ceiling for a route in the prescribed BFF.
const app = new Elysia().post("/", ({ body }) => ({ ok: body.email }), {
  body: t.Object({ uid: t.Optional(t.String()), email: t.String() }),
});
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  development: false,
  fetch: (request) => app.handle(request),
});
console.log(`READY ${server.port}`);
