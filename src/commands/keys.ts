// `svc keys create|list|usage|set-plan|rotate|revoke`: operator key management without a payment provider.
import { z } from "zod";
import { findKeyById, listKeys } from "../../db/repos/keys";
import { overage, usageMonth } from "../domain/access";
import { maskEmail } from "../domain/keys";
import { PLAN_IDS, PLANS, type PlanId } from "../plans";
import { issueKey, keyUsage, revokeKeyById } from "../services/keys";
import { rotateKeyById, setKeyPlanById, type KeyChangeRefusal } from "../services/key-admin";
import { CliError } from "./cli-error";
import { consoleContext, type Command } from "./command";
import { parseFlags, positiveInt, printRows, withDeps } from "./access-cli";

const PLAN_LIST = PLAN_IDS.join("|");
const help: Record<string, string> = {
  create: `create --plan <${PLAN_LIST}> [--scope svc-premium]... [--rate-limit N] [--email E] [--regions CODE,CODE] [--expires ISO-DATE] [--test]
  Prints the new key once on stdout (only its hash is stored) and a summary on stderr.
  --plan         the key's plan (its per-minute limit, included requests and premium access)
  --scope        a scope to grant (repeatable; svc-premium reads premium series on the free plan)
  --rate-limit   requests per minute instead of the plan's
  --email        a contact address stored with the key
  --regions      restricts the key to these region codes
  --expires      the key stops working at this ISO date or date-time
  --test         a test-mode key (svc_test_...)`,
  list: `list [--limit N]
  Lists the most recent keys (default 50): id, hint, masked email, plan, status, limit, scopes, subscription.`,
  usage: `usage --id KEY_ID [--month YYYY-MM]
  Metered requests of a key in a month (default: the current one), with its plan's included requests and overage.`,
  "set-plan": `set-plan --id KEY_ID --plan <${PLAN_LIST}> [--rate-limit N]
  Moves a key to another plan; it keeps its secret, usage and history. The per-minute limit becomes the plan's unless
  --rate-limit is given. A key paying a subscription follows its subscription's plan instead.`,
  rotate: `rotate --id KEY_ID
  Replaces a key's secret (plan, usage and history stay) and prints the new key once; the previous one stops working.`,
  revoke: `revoke --id KEY_ID
  Revokes a key at once. A key paying a subscription is revoked by ending the subscription.`,
};
const usage = Object.values(help)
  .map((h) => h.split("\n")[0])
  .join("\n       svc keys ");

function requireKeyId(rest: string[], extra: Parameters<typeof parseFlags>[1] = {}) {
  const f = parseFlags(rest, { id: { type: "string" }, ...extra });
  if (!f.id) throw new CliError("--id is required");
  if (!z.uuid().safeParse(f.id).success) throw new CliError(`--id must be a key id (uuid; see 'svc keys list')`);
  return { id: String(f.id), f };
}

function planFlag(value: unknown): PlanId {
  if (typeof value !== "string" || !(PLAN_IDS as readonly string[]).includes(value))
    throw new CliError(`--plan must be one of ${PLAN_IDS.join(", ")}`);
  return value as PlanId;
}

function refused(id: string, r: KeyChangeRefusal, what: string): never {
  if (r.reason === "not_found") throw new CliError(`no key ${id}`);
  if (r.reason === "revoked") throw new CliError(`key ${r.hint} is revoked`);
  throw new CliError(`key ${r.hint} pays subscription ${r.subscriptionId}: ${what}`);
}

export const keysCommand: Command = {
  usage,
  help,
  admin: true,
  async run(args, config, ctx = consoleContext()) {
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
      const plan = planFlag(f.plan);
      const email = f.email as string | undefined;
      if (email !== undefined && !z.email().safeParse(email).success)
        throw new CliError(`--email is not an email address`);
      let expiresAt: Date | null = null;
      if (f.expires !== undefined) {
        expiresAt = new Date(f.expires as string);
        if (Number.isNaN(expiresAt.getTime())) throw new CliError(`--expires must be an ISO date or date-time`);
      }
      const regions =
        f.regions === undefined
          ? null
          : String(f.regions)
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean);
      const rateLimitPerMinute = positiveInt(f["rate-limit"] as string | undefined, "rate-limit");
      await withDeps(config, ctx, async (deps) => {
        const now = deps.clock.now();
        if (expiresAt && expiresAt.getTime() <= now.getTime()) {
          throw new CliError(
            `--expires ${f.expires as string} is not in the future (now ${now.toISOString()}): a key that expired already would never work.`,
          );
        }
        const { key, row } = await issueKey(deps, {
          plan,
          mode: f.test ? "test" : "live",
          scopes: (f.scope as string[] | undefined) ?? [],
          rateLimitPerMinute,
          allowedRegions: regions,
          email: email ?? null,
          expiresAt,
        });
        ctx.out(key);
        ctx.err(
          `key ${row.hint} (id ${row.id}): plan ${PLANS[row.plan].name}, ${row.rateLimitPerMinute} requests/min` +
            `${row.scopes.length ? `, scopes ${row.scopes.join(",")}` : ""}${row.allowedRegions ? `, regions ${row.allowedRegions.join(",")}` : ""}` +
            `${row.expiresAt ? `, expires ${row.expiresAt.toISOString()}` : ""}. Shown once: only its hash is stored.`,
        );
      });
      return;
    }
    if (sub === "list") {
      const f = parseFlags(rest, { limit: { type: "string" } });
      await withDeps(config, ctx, async (deps) => {
        const rows = await listKeys(deps.database.db, {
          limit: positiveInt(f.limit as string | undefined, "limit") ?? 50,
        });
        printRows(
          ctx,
          rows.map(({ key, subscription }) => ({
            id: key.id,
            hint: key.hint,
            // Tells keys apart without printing whole addresses (the contact address, else the subscription's billing one).
            email: key.email
              ? maskEmail(key.email)
              : subscription?.billingEmail
                ? maskEmail(subscription.billingEmail)
                : null,
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
    if (sub === "usage") {
      const { id, f } = requireKeyId(rest, { month: { type: "string" } });
      if (f.month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(String(f.month)))
        throw new CliError("--month must be YYYY-MM");
      await withDeps(config, ctx, async (deps) => {
        const found = await findKeyById(deps.database.db, id);
        if (!found) throw new CliError(`no key ${id}`);
        const month = f.month === undefined ? usageMonth(deps.clock.now()) : String(f.month);
        // With the counts this process (the running server, when it carries the command out) has not moved yet.
        const requests = await keyUsage(deps, id, month);
        const plan = PLANS[found.key.plan];
        const included = plan.includedRequestsPerMonth;
        ctx.out(
          `key ${found.key.hint} ${month}: ${requests} requests; plan ${plan.name} (${included === null ? "no monthly quota" : `${included} included, ${overage(plan, requests).overageRequests} overage`}), ${found.key.rateLimitPerMinute} requests/min, ${found.key.status}`,
        );
      });
      return;
    }
    if (sub === "set-plan") {
      const { id, f } = requireKeyId(rest, { plan: { type: "string" }, "rate-limit": { type: "string" } });
      const plan = planFlag(f.plan);
      const rateLimit = positiveInt(f["rate-limit"] as string | undefined, "rate-limit");
      await withDeps(config, ctx, async (deps) => {
        const out = await setKeyPlanById(deps, id, plan, rateLimit);
        if (!out.changed) refused(id, out, `its plan follows the subscription's`);
        ctx.out(
          `key ${out.hint}: plan ${PLANS[out.from].name} -> ${PLANS[out.to].name}, ${out.rateLimitPerMinute} requests/min`,
        );
      });
      return;
    }
    if (sub === "rotate") {
      const { id } = requireKeyId(rest);
      await withDeps(config, ctx, async (deps) => {
        const out = await rotateKeyById(deps, id);
        if (!out.changed) refused(id, out, "");
        ctx.out(out.key);
        ctx.err(
          `key ${out.hint} replaces ${out.previousHint}, which no longer works. Shown once: only its hash is stored.`,
        );
      });
      return;
    }
    if (sub === "revoke") {
      const { id } = requireKeyId(rest);
      await withDeps(config, ctx, async (deps) => {
        // Through the service, so every running server drops the key from its cache before this prints "revoked".
        const out = await revokeKeyById(deps, id);
        if (!out.revoked && out.reason === "not_found") throw new CliError(`no key ${id}`);
        if (!out.revoked)
          throw new CliError(
            `key ${out.hint} pays subscription ${out.subscriptionId}: end it with 'svc subscriptions end --id ${out.subscriptionId}'`,
          );
        ctx.out(`revoked ${out.hint}`);
      });
      return;
    }
    throw new CliError(`usage: svc keys ${usage}`);
  },
};
