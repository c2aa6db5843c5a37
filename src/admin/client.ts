// The CLI's side of the administrative interface (server.ts): when a running server holds the embedded database, an
// administrative command is sent to it and its output printed as it comes, with its exit status.
import { resolve } from "node:path";
import { lockHolder } from "../../db/client";
import type { Config } from "../config";
import { CliError } from "../commands/cli-error";
import { ADMIN_FILE_CHECK_MS, adminFilePath, readAdminEndpoint, type AdminEndpoint } from "./endpoint";

/** The running server holding this embedded data directory, or null (PostgreSQL, or no process holds it). */
export function runningServer(config: Config): AdminEndpoint | null {
  if (config.databaseUrl) return null;
  const dir = resolve(config.dataDir);
  const pid = lockHolder(dir);
  if (pid === null || pid === process.pid) return null;
  let endpoint: AdminEndpoint | null;
  try {
    endpoint = readAdminEndpoint(dir);
  } catch (e) {
    throw new CliError(
      `the server (process ${pid}) holds the embedded database in ${dir}, but ${adminFilePath(dir)} cannot be read (${(e as { code?: string }).code ?? e}): run this as the user the server runs as`,
      1,
    );
  }
  if (!endpoint || endpoint.pid !== pid) {
    const file = adminFilePath(dir);
    throw new CliError(
      `the embedded database in ${dir} is in use by process ${pid}, and ${file} ${endpoint ? `names another process (${endpoint.pid})` : "is missing"}: ` +
        `a server that is starting writes it once it listens, and a running one writes it again within ${ADMIN_FILE_CHECK_MS / 1000} s if it was deleted, so retry shortly; ` +
        `if it stays missing, process ${pid} is another command (wait for it to finish) or a server started before this check existed (restart it).`,
      1,
    );
  }
  return endpoint;
}

/** Runs `argv` (the command line after `svc`) on the server; returns its exit status. */
export async function runOnServer(
  endpoint: AdminEndpoint,
  argv: string[],
  out: { stdout(line: string): void; stderr(line: string): void },
): Promise<number> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${endpoint.port}/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
      body: JSON.stringify({ argv, cwd: process.cwd() }),
      // An ingest may print nothing for longer than the runtime's idle timeout (5 minutes) while it works.
      timeout: false,
    } as RequestInit);
  } catch (e) {
    throw new CliError(
      `the server (process ${endpoint.pid}) holds the embedded database but does not answer on its administrative port ${endpoint.port}: ${(e as Error).message}`,
      1,
    );
  }
  if (!res.ok || !res.body)
    throw new CliError(
      `the server (process ${endpoint.pid}) refused the administrative command (HTTP ${res.status})`,
      1,
    );
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const frame = JSON.parse(buffered.slice(0, nl)) as { out?: string; err?: string; exit?: number };
      buffered = buffered.slice(nl + 1);
      if (frame.out !== undefined) out.stdout(frame.out);
      if (frame.err !== undefined) out.stderr(frame.err);
      if (frame.exit !== undefined) return frame.exit;
    }
  }
  throw new CliError(`the server (process ${endpoint.pid}) stopped before the command finished: see its log`, 1);
}
