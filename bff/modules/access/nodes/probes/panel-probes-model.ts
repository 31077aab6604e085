import { t } from "elysia";
import { rowId } from "../../../../platform/schemas";

/** A probe as the panel shows it; never its key or its credential. */
export const probe = t.Object({
  id: t.Number(),
  name: t.String(),
  reporting: t.Boolean({ description: "Enabled and heard from within the last 5 minutes" }),
  lastSeenAt: t.Nullable(t.String({ description: "ISO 8601; null: never called" })),
  disabled: t.Boolean(),
  createdAt: t.String(),
});

export const probeList = t.Object({ probes: t.Array(probe) });
export const newProbeBody = t.Object({ name: t.String({ maxLength: 256 }) });
export const withProbe = t.Object({ success: t.Literal(true), probe });
/** A probe and its key: the key is shown this once, stored only hashed. */
export const withKey = t.Object({
  success: t.Literal(true),
  probe,
  key: t.String({ description: "The probe's PROBE_KEY: shown this once, stored only hashed" }),
});
export const probeParams = t.Object({ id: rowId });
