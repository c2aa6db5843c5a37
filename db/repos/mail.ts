// Queries for the mail outbox.
import { desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { mailOutbox } from "../schema";

export type MailRow = typeof mailOutbox.$inferSelect;

export async function insertMail(db: Db, row: typeof mailOutbox.$inferInsert): Promise<void> {
  await db.insert(mailOutbox).values(row);
}

/** Newest first. */
export async function listMail(db: Db, opts: { to?: string; limit: number }): Promise<MailRow[]> {
  const q = db.select().from(mailOutbox);
  return (opts.to ? q.where(eq(mailOutbox.toAddress, opts.to)) : q).orderBy(desc(mailOutbox.seq)).limit(opts.limit);
}
