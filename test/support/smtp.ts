// A real SMTP receiver (smtp-server) on a loopback port; tests assert on the messages it actually received.
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string };

export type SmtpReceiver = {
  url: string;
  messages: ReceivedMail[];
  /** Refuse every recipient from now on (delivery failures), or accept again. */
  refuse(on: boolean): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (refusing)
        return cb(Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          });
          cb();
        })
        .catch((e) => cb(e));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse(on) {
      refusing = on;
    },
    async waitFor(count, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count && Date.now() < until) await Bun.sleep(10);
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
