// Mail outbox: every message the service sends. Without SMTP_URL the outbox is the mailbox the
// operator reads (`svc mail list`), so it keeps the whole body; with SMTP the body is stored with
// secrets (keys, recovery tokens) redacted, after the delivery attempt.
import { bigserial, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    /** Insertion order: messages sent at the same instant still list in the order they were sent. */
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** 'stored': kept in the local outbox (no SMTP); 'sent' / 'failed': SMTP delivery result. */
    status: text("status", { enum: ["stored", "sent", "failed"] }).notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("mail_outbox_created_idx").on(t.createdAt)],
);
