// SMTP delivery through nodemailer, configured by SMTP_URL (smtp://user:pass@host:587, smtps://host:465).
import type { Transporter } from "nodemailer";

export type MailTransport = {
  deliver(msg: { to: string; subject: string; text: string }): Promise<void>;
  close(): Promise<void>;
};

export function smtpTransport(url: string, from: string): MailTransport {
  // Made by the first message sent, not at start: nodemailer is about 20 MB of a node's idle memory.
  let transporter: Promise<Transporter> | null = null;
  const made = () =>
    (transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        // A dead mail server must fail a rotation quickly (502), not hang the request.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } as any),
    ));
  return {
    async deliver(msg) {
      const info = await (await made()).sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text });
      if (info.rejected && info.rejected.length > 0) throw new Error(`recipient rejected by the mail server`);
    },
    async close() {
      if (transporter) (await transporter).close();
    },
  };
}
