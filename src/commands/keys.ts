// `svc keys create|list|revoke`: operator key management without a payment provider.
import { z } from "zod";
import { listKeys } from "../../db/repos/keys";
import { PLAN_IDS, PLANS, type PlanId } from "../plans";
import { issueKey, revokeKeyById } from "../services/keys";
import { CliError } from "./cli-error";
import type { Command } from "./command";
import { parseFlags, positiveInt, printRows, withDeps } from "./access-cli";

const usage = `create --plan <free|developer|professional> [--scope svc-premium]... [--rate-limit N] [--email E] [--regions CODE,CODE] [--expires ISO-DATE] [--test]
       svc keys list [--limit N]
       svc keys revoke --id KEY_ID`;

export const keysCommand: Command = {
  summary: "Create, list and revoke API keys (create prints the new key once).",
  usage,
  async run(args, config) {
    const [sub, ...rest] = args;
    if (sub === "create") {
      const f = parseFlags(rest, {
        plan: { type: "string" },
        scope: { type: "string", multiple: true },
        "rate-limit": { type: "string" },
        email: { type: "string" },
        regions: { type: "string" },
        expires: { type: "string" },
        test: { type: "boolean" },
      });
      const plan = f.plan as string | undefined;
      if (!plan || !(PLAN_IDS as readonly string[]).includes(plan)) throw new CliError(`--plan must be one of ${PLAN_IDS.join(", ")}`);
      const email = f.email as string | undefined;
      if (email !== undefined && !z.email().safeParse(email).success) throw new CliError(`--email is not an email address`);
      let expiresAt: Date | null = null;
      if (f.expires !== undefined) {
        expiresAt = new Date(f.expires as string);
        if (Number.isNaN(expiresAt.getTime())) throw new CliError(`--expires must be an ISO date or date-time`);
      }
      const regions = f.regions === undefined ? null : String(f.regions).split(",").map((s) => s.trim()).filter(Boolean);
      const rateLimitPerMinute = positiveInt(f["rate-limit"] as string | undefined, "rate-limit");
      await withDeps(config, async (deps) => {
        const { key, row } = await issueKey(deps, {
          plan: plan as PlanId,
          mode: f.test ? "test" : "live",
          scopes: (f.scope as string[] | undefined) ?? [],
          rateLimitPerMinute,
          allowedRegions: regions,
          email: email ?? null,
          expiresAt,
        });
        console.log(key);
        console.error(
          `key ${row.hint} (id ${row.id}): plan ${PLANS[row.plan].name}, ${row.rateLimitPerMinute} requests/min` +
            `${row.scopes.length ? `, scopes ${row.scopes.join(",")}` : ""}${row.allowedRegions ? `, regions ${row.allowedRegions.join(",")}` : ""}` +
            `${row.expiresAt ? `, expires ${row.expiresAt.toISOString()}` : ""}. Shown once: only its hash is stored.`,
        );
      });
      return;
    }
    if (sub === "list") {
      const f = parseFlags(rest, { limit: { type: "string" } });
      await withDeps(config, async (deps) => {
        const rows = await listKeys(deps.database.db, { limit: positiveInt(f.limit as string | undefined, "limit") ?? 50 });
        printRows(
          rows.map(({ key, subscription }) => ({
            id: key.id,
            hint: key.hint,
            plan: key.plan,
            mode: key.mode,
            status: key.status,
            rate_limit: key.rateLimitPerMinute,
            scopes: key.scopes.join(",") || null,
            subscription: subscription?.id ?? null,
            created: key.createdAt.toISOString(),
          })),
        );
      });
      return;
    }
    if (sub === "revoke") {
      const f = parseFlags(rest, { id: { type: "string" } });
      if (!f.id) throw new CliError("--id is required");
      await withDeps(config, async (deps) => {
        if (!z.uuid().safeParse(f.id).success) throw new CliError(`--id must be a key id (uuid; see 'svc keys list')`);
        // Through the service, so every running server drops the key from its cache before this prints "revoked".
        const out = await revokeKeyById(deps, String(f.id));
        if (!out.revoked && out.reason === "not_found") throw new CliError(`no key ${f.id}`);
        if (!out.revoked) throw new CliError(`key ${out.hint} pays subscription ${out.subscriptionId}: end it with 'svc subscriptions end --id ${out.subscriptionId}'`);
        console.log(`revoked ${out.hint}`);
      });
      return;
    }
    throw new CliError(`usage: svc keys ${usage}`);
  },
};
