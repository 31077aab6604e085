import { t } from "elysia";

/** A probe as the panel shows it; never its key or its credential. */
export const probe = t.Object({
  id: t.Number(),
  name: t.String(),
  reporting: t.Boolean({ description: "Enabled and heard from within the last 5 minutes" }),
  lastSeenAt: t.Nullable(t.String({ description: "ISO 8601; null: never called" })),
  disabled: t.Boolean(),
  createdAt: t.String(),
});
