// The curated public briefings (spec "Briefings": GET /v1/briefings/public): questions people ask every week about
// the US economy, answered from the series the service holds. Each id is derived from its slug, so a briefing keeps
// its id, and with it its weekly slot (src/domain/briefings.ts), on every install and across reseeds. Upserted by
// slug: a wording changed here reaches existing databases on their next start, with their runs kept.
import { inArray } from "drizzle-orm";
import type { Db } from "../client";
import { regions } from "../schema";
import { upsertPublicBriefings, type PublicBriefingSeed } from "../repos/briefings";
import { sha256Hex, uuidFromBytes } from "../../src/domain/keys";

export const PUBLIC_BRIEFINGS: readonly PublicBriefingSeed[] = [
  {
    slug: "us-labor-market",
    name: "US labor market",
    question: "How is the US labor market doing: payroll employment, the unemployment rate and job openings?",
    regionCode: "US",
    window: "2y",
  },
  {
    slug: "us-inflation",
    name: "US inflation",
    question: "How fast are US consumer prices rising, headline and core?",
    regionCode: "US",
    window: "2y",
  },
  {
    slug: "us-housing",
    name: "US housing",
    question: "How are US housing starts and home values moving?",
    regionCode: "US",
    window: "5y",
  },
  {
    slug: "california-economy",
    name: "California economy",
    question: "How is California's economy doing: unemployment, employment and the labor force?",
    regionCode: "06",
    window: "2y",
  },
  {
    slug: "texas-economy",
    name: "Texas economy",
    question: "How is Texas's economy doing: unemployment, employment and the labor force?",
    regionCode: "48",
    window: "2y",
  },
];

/** The id of a public briefing: name-based, from its slug. */
export function publicBriefingId(slug: string): string {
  return uuidFromBytes(Buffer.from(sha256Hex(`public-briefing:${slug}`).slice(0, 32), "hex"));
}

/**
 * Upserts the curated public briefings; returns the rows written (0 when unchanged). Their curated order is kept by
 * their creation times, a millisecond apart, which the public list sorts by. Regions are seeded first: a briefing
 * whose region a database does not hold (one prepared by hand with a few regions) is left out.
 */
export async function seedPublicBriefings(db: Db, opts: { now?: Date } = {}): Promise<number> {
  const base = (opts.now ?? new Date(0)).getTime();
  const codes = [...new Set(PUBLIC_BRIEFINGS.flatMap((b) => (b.regionCode ? [b.regionCode] : [])))];
  const held = new Set(
    (await db.select({ code: regions.code }).from(regions).where(inArray(regions.code, codes))).map((r) => r.code),
  );
  const rows = PUBLIC_BRIEFINGS.map((b, i) => ({ ...b, id: publicBriefingId(b.slug), createdAt: new Date(base + i) }));
  return upsertPublicBriefings(
    db,
    rows.filter((b) => b.regionCode === null || held.has(b.regionCode)),
  );
}
