// The servers bench/faults.ts starts (\`svc serve\` on a free loopback port, optionally as \`nobody\`, its JSON log lines
// kept with the time they arrived) and the keyed load it drives them with: client loops reading a metered page until
// stopped, every request's send time and status (or none: no answer within 10 s) kept for the summary.
import { freePort, REPO_ROOT } from "./load";
import { KEYED_PAGE } from "./serve-app";

export type Server = { url: string; proc: Bun.Subprocess; logs: { at: number; entry: any }[]; stop(): Promise<number> };

export async function startServer(env: Record<string, string>, opts: { asNobody?: boolean } = {}): Promise<Server> {
  const port = await freePort();
  const cmd = [process.execPath, "src/cli.ts", "serve"];
  // setpriv execs the server itself (signals reach it directly).
  const full = opts.asNobody ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", ...cmd] : cmd;
  const proc = Bun.spawn(full, {
    cwd: REPO_ROOT,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const logs: Server["logs"] = [];
  let listening!: () => void;
  const ready = new Promise<void>((r) => (listening = r));
  void (async () => {
    let text = "";
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      text += new TextDecoder().decode(chunk);
      const lines = text.split("\n");
      text = lines.pop()!;
      for (const l of lines) {
        let entry: any = { raw: l };
        try {
          entry = JSON.parse(l);
        } catch {}
        logs.push({ at: performance.now(), entry });
        if (entry.msg === "ready") listening();
      }
    }
  })();
  await Promise.race([
    ready,
    proc.exited.then((c) =>
      Promise.reject(new Error(`server exited ${c}: ${logs.map((l) => JSON.stringify(l.entry)).join("\n")}`)),
    ),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    logs,
    async stop() {
      proc.kill("SIGTERM");
      return proc.exited;
    },
  };
}

export type Sample = { sentAt: number; status: number | "none" };

/** `clients` loops requesting `path` with the key until stop(); each request gets 10 s to be answered. */
export function keyedLoad(servers: Server[], key: string, clients: number, path = KEYED_PAGE) {
  const samples: Sample[] = [];
  let stopping = false;
  const loops = Array.from({ length: clients }, async (_, i) => {
    const base = servers[i % servers.length]!.url;
    while (!stopping) {
      const sentAt = performance.now();
      try {
        const res = await fetch(base + path, { headers: { "X-API-Key": key }, signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        samples.push({ sentAt, status: res.status });
      } catch {
        samples.push({ sentAt, status: "none" });
        await Bun.sleep(10);
      }
    }
  });
  return {
    samples,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

export function summarize(samples: Sample[]) {
  const statuses: Record<string, number> = {};
  for (const s of samples) if (s.status !== "none") statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return {
    sent: samples.length,
    statuses,
    noAnswer: samples.filter((s) => s.status === "none").length,
    ok: statuses["200"] ?? 0,
  };
}

/** Milliseconds from `removedAt` to the first request sent after it that was answered 200. */
export function firstOkAfter(samples: Sample[], removedAt: number): number | null {
  const first = samples.filter((s) => s.sentAt >= removedAt && s.status === 200).sort((a, b) => a.sentAt - b.sentAt)[0];
  return first ? first.sentAt - removedAt : null;
}
