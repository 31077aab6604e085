// The ceiling for any JSON POST route here: a bare Bun.serve that only reads the body.
export {};

const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const body = (await request.json()) as { email?: string };
    return Response.json({ ok: body.email ?? null });
  },
});
console.log(`READY ${server.port}`);
