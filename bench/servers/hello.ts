// The baseline of DESIGN §10: a bare Bun.serve answering a small JSON body.
export {};

const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  fetch: () => Response.json({ hello: "world" }),
});
console.log(`READY ${server.port}`);
