// `svc mail list`: the mail outbox. Without SMTP_URL it is the mailbox itself (keys and recovery tokens
// included, for the operator to forward); with SMTP it records deliveries with secrets redacted.
import { z } from "zod";
import { listMail } from "../../db/repos/mail";
import { CliError } from "./cli-error";
import { consoleContext, type Command } from "./command";
import { parseFlags, positiveInt, withDeps } from "./access-cli";

export const mailCommand: Command = {
  usage: "list [--to ADDRESS] [--limit N]",
  admin: true,
  async run(args, config, ctx = consoleContext()) {
    const [sub, ...rest] = args;
    if (sub !== "list") throw new CliError("usage: svc mail list [--to ADDRESS] [--limit N]");
    const f = parseFlags(rest, { to: { type: "string" }, limit: { type: "string" } });
    if (f.to !== undefined && !z.email().safeParse(f.to).success) throw new CliError("--to must be an email address");
    await withDeps(config, ctx, async (deps) => {
      const rows = await listMail(deps.database.db, {
        to: f.to ? String(f.to).toLowerCase() : undefined,
        limit: positiveInt(f.limit as string | undefined, "limit") ?? 20,
      });
      if (rows.length === 0) ctx.out("(no mail)");
      for (const m of rows.reverse()) {
        ctx.out(`--- #${m.seq} ${m.createdAt.toISOString()} [${m.status}${m.error ? `: ${m.error}` : ""}] ${m.kind}`);
        ctx.out(`To: ${m.toAddress}\nSubject: ${m.subject}\n\n${m.body}\n`);
      }
    });
  },
};
