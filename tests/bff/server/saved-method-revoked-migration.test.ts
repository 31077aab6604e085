import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { apiOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { cards, order, payWithCard, runBilling } from "../../helpers/payments";

// Migration 0030 (PostgreSQL 0019) on a database in use: SQLite rebuilds mail_outbox to
// widen its kind CHECK while renewal_notices refers to its rows, and every card removal
// before it was the customer's own.

const migrationOf = (engine: string) =>
  readFileSync(
    new URL(
      `../../../db/migrations/${engine}/${engine === "postgres" ? "0019" : "0030"}_saved_method_revoked.sql`,
      import.meta.url,
    ),
    "utf8",
  );

test("keeps every message (and the notices that name them), names old removals the customer's, and takes the new kind", async () => {
  const { app, context } = await makeTestApp();
  const { database } = context;
  const paid = async (email: string) => {
    const customer = await signIn(app, email);
    const widget = await order(app, customer, 1, 1);
    expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
    return customer;
  };
  await paid("noticed@example.com");
  const removes = await paid("removes@example.com");
  expect((await apiOf(app).profile.removeCard.post(identityOf(removes), sessionOf(removes))).status).toBe(
    200,
  );
  await runBilling(app); // queues and sends the renewal notice of the customer who kept the card
  const outbox = () => database.all("SELECT * FROM mail_outbox ORDER BY id");
  const notices = () => database.all("SELECT * FROM renewal_notices ORDER BY id");
  const before = { outbox: await outbox(), notices: await notices() };
  expect(before.notices).toHaveLength(1);

  await database.exec("ALTER TABLE subscriptions DROP COLUMN card_removed_by");
  await database.transaction(() => database.exec(migrationOf(database.engine)));

  expect({ outbox: await outbox(), notices: await notices() }).toEqual(before);
  if (database.engine === "sqlite") expect(await database.all("PRAGMA foreign_key_check")).toEqual([]);
  expect(
    await database.all(
      "SELECT u.email, s.card_removed_by FROM subscriptions s JOIN users u ON u.id = s.user_id ORDER BY u.email",
    ),
  ).toEqual([
    { email: "noticed@example.com", card_removed_by: null },
    { email: "removes@example.com", card_removed_by: "customer" },
  ]);
  const insert = (kind: string) =>
    database.run(
      `INSERT INTO mail_outbox (user_id, kind, language, recipient, data, event_key, message_id, next_attempt_at, created_at)
       VALUES (NULL, ?, 'en', 'x@example.com', '{}', ?, ?, 0, 0)`,
      [kind, `test:${kind}`, `test-${kind}@kannt`],
    );
  await insert("sbp_autopay_canceled");
  await expect(insert("no_such_kind")).rejects.toThrow();
});
