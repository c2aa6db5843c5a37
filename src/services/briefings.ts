// Briefing use cases (spec "Briefings"): the public catalog and its paid read, a key's saved briefings (create, list,
// get, delete, run history) and the weekly run itself, shared by the routes and the job engine.
// - A key reaches only its own briefings: every query names the owner, and an id that is not its own, or not an id at
//   all, is the same 404 as an unknown one (404, not 403, so ids cannot be probed).
// - Saving a briefing needs premium access, decided by the admission core (the caller hands in its check).
// - A run asks the question at the briefing depth with premium signals and stores what came back; a run that throws is
//   stored as failed with its error and never replaces the last good run, which is what readers are served.
import type { Db } from "../../db/client";
import {
  deleteBriefingById,
  deleteOwnedBriefing,
  findOwnedBriefing,
  findPublicBriefing,
  findRun,
  findRunnableBriefing,
  insertOwnedBriefing,
  insertRun,
  latestGoodRunOf,
  listOwnedBriefings,
  listPublicBriefings,
  listRunsOfBriefing,
  runnableBriefingIds,
  runnableBriefingIdsWithoutGoodRun,
  type BriefingRow,
  type BriefingRunRow,
  type BriefingWithLastRun,
} from "../../db/repos/briefings";
import type { Deps } from "../deps";
import type { EntitlementWant } from "../domain/access";
import {
  MAX_BRIEFINGS_PER_KEY,
  isUuid,
  nextOccurrence,
  previousOccurrence,
  weeklySlot,
  type RunStatus,
} from "../domain/briefings";
import { ApiError, fail } from "../errors";
import type { Logger } from "../logger";
import type { Clock } from "../ports";
import type { Read } from "../pricing";
import type { CreateBriefingBody } from "../schemas/briefings";
import type { AskResponse } from "../schemas/ask";
import type { Asker } from "./ask";
import type { Store } from "./caches";
import type { AuthenticatedKey } from "./key-auth";
import { newId } from "./keys";
import { resolveRegion } from "./regions";

export type BriefingDeps = Pick<Deps, "database" | "clock" | "random" | "caches" | "jobs" | "logger">;
/** The admission core's entitlement decision for the calling key: throws its refusal (403). */
export type EntitlementCheck = (want: EntitlementWant) => void;

const notFound = (id: string): never =>
  fail("RESOURCE_NOT_FOUND", `No briefing '${id.length > 100 ? `${id.slice(0, 100)}…` : id}' for this key.`, { id });

// ---- saved briefings ---------------------------------------------------------------------------------------------

export async function createBriefing(
  deps: BriefingDeps,
  owner: { key: AuthenticatedKey; entitle: EntitlementCheck },
  body: CreateBriefingBody,
) {
  owner.entitle({ premium: true, region: null, indicator: null, surface: "briefings" });
  const store: Store = { db: deps.database.db, caches: deps.caches };
  const region = body.region === undefined ? null : await resolveRegion(store, body.region);
  if (region) owner.entitle({ premium: true, region: region.code, indicator: null, surface: "briefings" });
  const now = deps.clock.now();
  const row = {
    id: newId(deps),
    ownerKeyId: owner.key.id,
    slug: null,
    name: body.name.trim(),
    question: body.question.trim(),
    cadence: body.cadence,
    regionCode: region?.code ?? null,
    window: body.window ?? null,
    createdAt: now,
  };
  if (!(await insertOwnedBriefing(deps.database.db, row, MAX_BRIEFINGS_PER_KEY))) {
    fail(
      "INVALID_PARAMETER",
      `This key already keeps ${MAX_BRIEFINGS_PER_KEY} saved briefings, the most one key may: delete one first (DELETE /v1/briefings/{id}).`,
      {
        limit: MAX_BRIEFINGS_PER_KEY,
      },
    );
  }
  // A briefing without its schedule would never run: then it is not kept either.
  try {
    await deps.jobs.scheduleBriefing(row.id);
  } catch (e) {
    await deleteBriefingById(deps.database.db, row.id);
    throw e;
  }
  // Its first run now rather than next week; if it cannot be queued, the job engine's next start queues it.
  await deps.jobs.runBriefingNow(row.id).catch((e) =>
    deps.logger.error("the first run of a new briefing could not be queued", {
      briefing_id: row.id,
      error: String(e),
    }),
  );
  return { data: { ...toBriefing({ ...row, lastRunAt: null }, now), latest_run: null } };
}

export async function listBriefings(deps: Pick<Deps, "database" | "clock">, key: AuthenticatedKey) {
  const rows = await listOwnedBriefings(deps.database.db, key.id);
  const now = deps.clock.now();
  return {
    data: rows.map((r) => toBriefing(r, now)),
    meta: { count: rows.length, max_per_key: MAX_BRIEFINGS_PER_KEY },
  };
}

export async function getBriefing(deps: Pick<Deps, "database" | "clock">, key: AuthenticatedKey, id: string) {
  const b = await ownedBriefing(deps.database.db, key, id);
  const latest = await latestGoodRunOf(deps.database.db, b.id);
  return { data: { ...toBriefing(b, deps.clock.now()), latest_run: latest ? toRun(latest) : null } };
}

export async function deleteBriefing(
  deps: Pick<Deps, "database" | "jobs" | "logger">,
  key: AuthenticatedKey,
  id: string,
) {
  if (!isUuid(id) || !(await deleteOwnedBriefing(deps.database.db, id, key.id))) notFound(id);
  // Deleted either way: a schedule left behind finds no briefing to run, and the job engine's next start removes it.
  await deps.jobs
    .unscheduleBriefing(id)
    .catch((e) =>
      deps.logger.error("a deleted briefing's schedule could not be removed", { briefing_id: id, error: String(e) }),
    );
  return { data: { id, deleted: true as const } };
}

export async function listRuns(deps: Pick<Deps, "database">, key: AuthenticatedKey, id: string, limit: number) {
  const b = await ownedBriefing(deps.database.db, key, id);
  const runs = await listRunsOfBriefing(deps.database.db, b.id, limit);
  return { data: runs.map(toRun), meta: { limit, count: runs.length } };
}

async function ownedBriefing(db: Db, key: AuthenticatedKey, id: string): Promise<BriefingWithLastRun> {
  const b = isUuid(id) ? await findOwnedBriefing(db, id, key.id) : null;
  return b ?? notFound(id);
}

// ---- public briefings --------------------------------------------------------------------------------------------

export async function publicBriefings(deps: Pick<Deps, "database">) {
  const rows = await listPublicBriefings(deps.database.db);
  return {
    data: rows.map((r) => ({
      slug: r.slug!,
      name: r.name,
      question: r.question,
      cadence: r.cadence,
      last_run_at: r.lastRunAt?.toISOString() ?? null,
    })),
    meta: { count: rows.length },
  };
}

/** What a public read will serve: its briefing and latest good run. */
/** `regions`: every region the run's answer read (its resolved regions and its tool calls'), for the entitlement. */
/** `reads`: every region the stored answer read, for the admission core's entitlement. */
export type PublicRead = { briefing: BriefingRow; runId: string; reads: Read[] };

/** Before payment: an unknown slug, and a public briefing that has not run yet, are free 404s. */
export async function resolvePublicRead(deps: Pick<Deps, "database" | "caches">, slug: string): Promise<PublicRead> {
  // A public briefing's first run follows the signals over everything stored (src/startup/first-start.ts).
  deps.caches.catalog.loading.assertServed("signals");
  const shown = slug.length > 100 ? `${slug.slice(0, 100)}…` : slug;
  const briefing = await findPublicBriefing(deps.database.db, slug);
  if (!briefing)
    fail("RESOURCE_NOT_FOUND", `Unknown public briefing '${shown}': GET /v1/briefings/public lists them.`, { slug });
  const run = await latestGoodRunOf(deps.database.db, briefing.id);
  if (!run)
    fail("RESOURCE_NOT_FOUND", `The public briefing '${shown}' has not run yet: try again after its first run.`, {
      slug,
    });
  const reads = regionsRead(run.response, briefing.regionCode).map(
    (region): Read => ({ indicator: null, region, premium: false, surface: "briefing_read" }),
  );
  return { briefing, runId: run.id, reads };
}

/** The regions a stored answer reads: the briefing's own, the answer's resolved regions and its tool calls' `region`. */
export function regionsRead(response: unknown, briefingRegion: string | null): string[] {
  const r = (response ?? {}) as {
    resolved?: { regions?: { code?: unknown }[] };
    citations?: { args?: Record<string, unknown> }[];
  };
  const codes = new Set<string>();
  if (briefingRegion) codes.add(briefingRegion);
  for (const region of r.resolved?.regions ?? []) if (typeof region.code === "string") codes.add(region.code);
  for (const c of r.citations ?? []) if (typeof c.args?.region === "string") codes.add(c.args.region);
  return [...codes].sort();
}

/** The paid read: the run resolved before payment, with its stored answer and citation trace. */
export async function readPublicBriefing(deps: Pick<Deps, "database" | "clock">, read: PublicRead) {
  const run = await findRun(deps.database.db, read.runId);
  // Deleted between resolution and now (a public briefing is never deleted by the API): not served, not charged.
  if (!run)
    fail("RESOURCE_NOT_FOUND", `The public briefing '${read.briefing.slug}' has no run to serve.`, {
      slug: read.briefing.slug,
    });
  const b = read.briefing;
  return {
    data: { slug: b.slug!, name: b.name, question: b.question, cadence: b.cadence, run: toRun(run) },
    meta: { next_run_at: nextOccurrence(weeklySlot(b.id), deps.clock.now()).toISOString() },
  };
}

// ---- runs --------------------------------------------------------------------------------------------------------

export type RunDeps = { db: Db; clock: Clock; logger: Logger };

/** `stored`: the run was stored (good or failed); `duplicate`: another process stored this occurrence's good run first; `skipped`: nothing to run (deleted, or its key revoked). */
export type RunOutcome =
  | { kind: "stored"; run: BriefingRunRow }
  | { kind: "duplicate"; scheduledFor: Date }
  | { kind: "skipped" };

/**
 * Runs a briefing once: asks its question at the briefing depth (premium signals included) and stores the run, for
 * the weekly occurrence at or before its start. `asker` throwing (a database or internal fault) stores a failed run.
 */
export async function runBriefing(deps: RunDeps, asker: Asker, briefingId: string): Promise<RunOutcome> {
  const b = await findRunnableBriefing(deps.db, briefingId);
  if (!b) return { kind: "skipped" };
  const startedAt = deps.clock.now();
  const t0 = performance.now();
  const scheduledFor = previousOccurrence(weeklySlot(b.id), startedAt);
  let stored: Parameters<typeof insertRun>[1];
  try {
    const response = await asker.answer(
      {
        q: b.question,
        depth: "briefing",
        ...(b.regionCode ? { region: b.regionCode } : {}),
        ...(b.window ? { window: b.window } : {}),
      },
      { signals: true },
    );
    stored = {
      ...timing(deps, b.id, scheduledFor, startedAt, t0),
      status: response.status as RunStatus,
      response,
      grounded: response.grounded,
      truncated: response.truncated,
      error: null,
    };
  } catch (e) {
    deps.logger.error("briefing run failed", { briefing_id: b.id, error: e instanceof Error ? e.message : String(e) });
    stored = {
      ...timing(deps, b.id, scheduledFor, startedAt, t0),
      status: "failed",
      response: null,
      grounded: null,
      truncated: null,
      error: runError(e),
    };
  }
  const run = await insertRun(deps.db, stored);
  return run ? { kind: "stored", run } : { kind: "duplicate", scheduledFor };
}

function timing(deps: RunDeps, briefingId: string, scheduledFor: Date, startedAt: Date, t0: number) {
  return {
    briefingId,
    scheduledFor,
    startedAt,
    finishedAt: deps.clock.now(),
    durationMs: Math.max(0, Math.round(performance.now() - t0)),
  };
}

/** What a run's owner is told: a client-facing error says itself; anything else stays in the operator's log. */
function runError(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return "The question could not be answered this time (an internal error, logged for the operator); the next run tries again.";
}

/** The latest good run of a briefing (public or saved), or null. */
export async function latestGoodRun(deps: Pick<Deps, "database">, briefingId: string): Promise<BriefingRunRow | null> {
  return latestGoodRunOf(deps.database.db, briefingId);
}

/** Briefings that should have a weekly schedule: public ones, and saved ones of keys not revoked. */
export function scheduledBriefingIds(db: Db): Promise<string[]> {
  return runnableBriefingIds(db);
}

/** Briefings that have no good run yet (new, or every run so far failed): the job engine runs them on start. */
export function briefingIdsAwaitingRun(db: Db): Promise<string[]> {
  return runnableBriefingIdsWithoutGoodRun(db);
}

// ---- shapes ------------------------------------------------------------------------------------------------------

function toBriefing(b: BriefingWithLastRun, now: Date) {
  return {
    id: b.id,
    name: b.name,
    question: b.question,
    cadence: b.cadence,
    region: b.regionCode,
    window: b.window,
    created_at: b.createdAt.toISOString(),
    last_run_at: b.lastRunAt?.toISOString() ?? null,
    next_run_at: nextOccurrence(weeklySlot(b.id), now).toISOString(),
  };
}

function toRun(r: BriefingRunRow) {
  return {
    id: r.id,
    status: r.status,
    scheduled_for: r.scheduledFor.toISOString(),
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt.toISOString(),
    duration_ms: r.durationMs,
    // Written by runBriefing below from an AskResponse.
    response: r.response as AskResponse | null,
    error: r.error,
  };
}
