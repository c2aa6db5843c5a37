// Outbound mail. Every message goes through the outbox table:
// - without a transport (no SMTP_URL) the outbox is the mailbox: the whole message is stored and the operator
//   reads it with `svc mail list` (so it holds keys and tokens; configure SMTP in production);
// - with SMTP the message is sent first and then recorded with its secrets redacted and the delivery result.
// send() reports whether the message reached its destination, so callers can answer 502 when it did not.
import type { Database } from "../../db/client";
import { insertMail } from "../../db/repos/mail";
import type { Clock, Mailer, OutgoingMail, RandomSource, SendResult } from "../ports";

export type { Mailer, OutgoingMail, SendResult };
import type { Logger } from "../logger";
import type { MailTransport } from "./transport";

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join("[redacted]");
  return out;
}

export function createMailer(deps: {
  database: Database;
  clock: Clock;
  random: RandomSource;
  logger: Logger;
  transport: MailTransport | null;
}): Mailer {
  const pending = new Set<Promise<unknown>>();

  async function record(msg: OutgoingMail, status: "stored" | "sent" | "failed", body: string, error: string | null) {
    await insertMail(deps.database.db, {
      kind: msg.kind,
      toAddress: msg.to,
      subject: msg.subject,
      body,
      status,
      error,
      createdAt: deps.clock.now(),
    });
  }

  async function send(msg: OutgoingMail): Promise<SendResult> {
    if (!deps.transport) {
      try {
        await record(msg, "stored", msg.text, null);
        return { delivered: true };
      } catch (e) {
        deps.logger.error("mail outbox write failed", { kind: msg.kind, error: String(e) });
        return { delivered: false, error: "the mail outbox could not be written" };
      }
    }
    let result: SendResult;
    try {
      await deps.transport.deliver({ to: msg.to, subject: msg.subject, text: msg.text });
      result = { delivered: true };
    } catch (e) {
      // Transport errors can echo the message; keep secrets out of the log and the table.
      result = { delivered: false, error: redact(e instanceof Error ? e.message : String(e), msg.secrets) };
      deps.logger.warn("mail delivery failed", { kind: msg.kind, error: result.error });
    }
    try {
      await record(
        msg,
        result.delivered ? "sent" : "failed",
        redact(msg.text, msg.secrets),
        result.delivered ? null : result.error,
      );
    } catch (e) {
      deps.logger.error("mail outbox write failed", { kind: msg.kind, error: String(e) });
    }
    return result;
  }

  return {
    mode: deps.transport ? "smtp" : "outbox",
    send,
    sendLater(msg) {
      const p = send(msg).catch((e) => deps.logger.error("mail send failed", { kind: msg.kind, error: String(e) }));
      pending.add(p);
      void p.finally(() => pending.delete(p));
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    async close() {
      while (pending.size) await Promise.all([...pending]);
      await deps.transport?.close();
    },
  };
}
