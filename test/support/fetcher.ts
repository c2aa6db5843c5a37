// A SeriesFetcher for tests of provisioning and refresh: it "fetches" a series by reading a real FRED download from
// ../shared/data/fred-macro-us (CODE.csv) and writing it through the one write path (db/repos/observations.ts
// writeManySeries), as a connector would. Tests tell it, per indicator code, to fail (retryable or not, a number of
// times or for good), to stall until released, or to write only part of the series and then hang (a worker killed
// mid-job). It counts every fetch, and (with `log`) appends one line per fetch to a file that processes share.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../../db/client";
import { writeManySeries, type ObservationInput } from "../../db/repos/observations";
import type { IndicatorRow } from "../../db/repos/catalog";
import type { RegionRow } from "../../db/repos/regions";
import { parseObservationsCsv } from "../../src/domain/csv-observations";
import type { SeriesFetcher, SeriesKey } from "../../src/ports";
import { SHARED_DATA_DIR } from "./shared-data";

export const FRED_DIR = join(SHARED_DATA_DIR, "fred-macro-us");

/** The observations of `code` in ../shared/data/fred-macro-us/CODE.csv. */
export function fredRows(code: string): ObservationInput[] {
  const parsed = parseObservationsCsv(readFileSync(join(FRED_DIR, `${code}.csv`), "utf8"));
  return parsed.rows.map((r) => ({ date: r.date, value: r.value }));
}

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export type Behaviour =
  | { kind: "ok" }
  /** Fails the next `times` fetches (forever when omitted), then fetches normally. */
  | { kind: "fail"; retryable: boolean; times?: number; retryAfterSeconds?: number; message?: string }
  /** Waits until release() before fetching. */
  | { kind: "stall" }
  /** Writes the first half of the rows, then never returns (the process is to be killed). */
  | { kind: "half-then-hang" };

export class CsvFetcher implements SeriesFetcher {
  readonly fetched: { code: string; region: string }[] = [];
  readonly refreshed: string[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly opts: { now?: () => Date; log?: string; delayMs?: number } = {},
  ) {}

  set(code: string, b: Behaviour): this {
    this.behaviours.set(code, b);
    return this;
  }

  /** Lets every stalled fetch go on. */
  release(): void {
    for (const go of this.waiting.splice(0)) go();
  }

  get stalled(): number {
    return this.waiting.length;
  }

  count(code: string): number {
    return this.fetched.filter((f) => f.code === code).length;
  }

  fetchVia(indicator: IndicatorRow, region: RegionRow): string | null {
    return this.canFetch(indicator, region) ? "fred" : null;
  }

  canFetch(indicator: IndicatorRow, region: RegionRow): boolean {
    return (
      indicator.sourceSlug === "fred" &&
      region.code === indicator.defaultRegionCode &&
      existsSync(join(FRED_DIR, `${indicator.code}.csv`))
    );
  }

  async fetch(indicator: IndicatorRow, region: RegionRow): Promise<void> {
    this.fetched.push({ code: indicator.code, region: region.code });
    if (this.opts.log) appendFileSync(this.opts.log, `fetch ${indicator.code} ${region.code} ${process.pid}\n`);
    const b = this.behaviours.get(indicator.code) ?? { kind: "ok" };
    if (b.kind === "fail") {
      if (b.times !== undefined) {
        if (b.times <= 1) this.behaviours.delete(indicator.code);
        else this.behaviours.set(indicator.code, { ...b, times: b.times - 1 });
      }
      throw new UpstreamError(
        b.message ?? `FRED answered 500 for ${indicator.code}`,
        "fred",
        b.retryable,
        b.retryAfterSeconds,
      );
    }
    if (b.kind === "stall") await new Promise<void>((go) => this.waiting.push(go));
    if (this.opts.delayMs) await Bun.sleep(this.opts.delayMs);
    const rows = fredRows(indicator.code);
    if (b.kind === "half-then-hang") {
      await this.write(indicator.id, region.code, rows.slice(0, Math.floor(rows.length / 2)));
      if (this.opts.log) appendFileSync(this.opts.log, `hang ${indicator.code} ${region.code} ${process.pid}\n`);
      await new Promise(() => {});
    }
    await this.write(indicator.id, region.code, rows);
    if (this.opts.log) appendFileSync(this.opts.log, `done ${indicator.code} ${region.code} ${process.pid}\n`);
  }

  /** The held series a refresh of a source re-reads (the test says which). */
  heldForRefresh: { source: string; indicatorId: string; code: string; region: string }[] = [];
  /** How the upstream revised its rows since the first fetch (identity: nothing changed). */
  revise: (rows: ObservationInput[]) => ObservationInput[] = (rows) => rows;
  /** Sources whose refresh fails (upstream down). */
  readonly refreshFails = new Set<string>();

  async refresh(source: string): Promise<{ changed: SeriesKey[] }> {
    this.refreshed.push(source);
    if (this.opts.log) appendFileSync(this.opts.log, `refresh ${source} ${process.pid}\n`);
    if (this.refreshFails.has(source))
      throw new UpstreamError(`${source} answered 503 Service Unavailable`, source, true);
    const changed: SeriesKey[] = [];
    for (const h of this.heldForRefresh.filter((x) => x.source === source)) {
      const rows = this.revise(fredRows(h.code));
      const [res] = await writeManySeries(this.db, {
        items: [{ indicatorId: h.indicatorId, regionCode: h.region, rows }],
        now: this.now(),
      });
      if (res!.inserted + res!.revised > 0) changed.push({ indicatorId: h.indicatorId, regionCode: h.region });
    }
    return { changed };
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date("2026-11-22T12:00:00Z");
  }

  private async write(indicatorId: string, regionCode: string, rows: ObservationInput[]): Promise<void> {
    await writeManySeries(this.db, { items: [{ indicatorId, regionCode, rows }], now: this.now() });
  }
}
