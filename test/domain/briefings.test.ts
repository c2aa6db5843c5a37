// Briefing rules (src/domain/briefings.ts): the weekly slot a briefing's id hashes to, its cron, and the occurrences
// a run answers for, at and around the slot's minute and across the week's end; which runs are good; id syntax.
import { describe, expect, test } from "bun:test";
import {
  GOOD_RUN_STATUSES,
  RUN_STATUSES,
  fnv1a32,
  isGoodRun,
  isUuid,
  nextOccurrence,
  previousOccurrence,
  slotCron,
  weeklySlot,
} from "../../src/domain/briefings";

describe("fnv1a32", () => {
  test("the published FNV-1a 32-bit test vectors", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });
});

describe("weeklySlot", () => {
  test("Monday, 06:00 to 11:59 UTC, the minute of the window the id hashes to", () => {
    const id = "3b241101-e2bb-4255-8caf-4136c566a962";
    const m = fnv1a32(id) % 360;
    expect(weeklySlot(id)).toEqual({ weekday: 1, hour: 6 + Math.floor(m / 60), minute: m % 60 });
  });

  test("the same id always gets the same slot; ids spread over the window", () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect(ids.map(weeklySlot)).toEqual(ids.map(weeklySlot));
    const minutes = new Set(
      ids.map((id) => {
        const s = weeklySlot(id);
        return (s.hour - 6) * 60 + s.minute;
      }),
    );
    for (const m of minutes) expect(m >= 0 && m < 360).toBe(true);
    // 2,000 ids over 360 minutes: nearly every minute is used (a constant slot would use one).
    expect(minutes.size).toBeGreaterThan(340);
  });

  test("slotCron: five fields, minute hour * * weekday", () => {
    expect(slotCron({ weekday: 1, hour: 6, minute: 0 })).toBe("0 6 * * 1");
    expect(slotCron({ weekday: 1, hour: 11, minute: 59 })).toBe("59 11 * * 1");
  });
});

describe("occurrences of a weekly slot", () => {
  const slot = { weekday: 1, hour: 9, minute: 47 };

  test("at the occurrence itself it is the previous one; a millisecond before, the week before", () => {
    expect(previousOccurrence(slot, new Date("2026-11-23T09:47:00.000Z")).toISOString()).toBe(
      "2026-11-23T09:47:00.000Z",
    );
    expect(previousOccurrence(slot, new Date("2026-11-23T09:46:59.999Z")).toISOString()).toBe(
      "2026-11-16T09:47:00.000Z",
    );
    expect(nextOccurrence(slot, new Date("2026-11-23T09:47:00.000Z")).toISOString()).toBe("2026-11-30T09:47:00.000Z");
    expect(nextOccurrence(slot, new Date("2026-11-23T09:46:59.999Z")).toISOString()).toBe("2026-11-23T09:47:00.000Z");
  });

  test("every day of the week, and across a month and a year end", () => {
    // 2026-11-22 is a Sunday.
    expect(previousOccurrence(slot, new Date("2026-11-22T12:00:00Z")).toISOString()).toBe("2026-11-16T09:47:00.000Z");
    expect(previousOccurrence(slot, new Date("2026-11-24T00:00:00Z")).toISOString()).toBe("2026-11-23T09:47:00.000Z");
    expect(previousOccurrence(slot, new Date("2026-11-29T23:59:59Z")).toISOString()).toBe("2026-11-23T09:47:00.000Z");
    expect(previousOccurrence(slot, new Date("2026-12-01T00:00:00Z")).toISOString()).toBe("2026-11-30T09:47:00.000Z");
    // 2027-01-01 is a Friday: the previous Monday is in 2026.
    expect(previousOccurrence(slot, new Date("2027-01-01T00:00:00Z")).toISOString()).toBe("2026-12-28T09:47:00.000Z");
    expect(nextOccurrence(slot, new Date("2027-01-01T00:00:00Z")).toISOString()).toBe("2027-01-04T09:47:00.000Z");
    // Midnight Monday, before the slot's hour.
    expect(previousOccurrence(slot, new Date("2026-11-23T00:00:00Z")).toISOString()).toBe("2026-11-16T09:47:00.000Z");
  });

  test("previous <= at < next, a week apart, on the slot's weekday, hour and minute", () => {
    for (
      let t = Date.parse("2026-01-01T00:00:00Z");
      t < Date.parse("2027-01-01T00:00:00Z");
      t += 3_600_000 * 7 + 61_000
    ) {
      const at = new Date(t);
      const p = previousOccurrence(slot, at);
      const n = nextOccurrence(slot, at);
      expect(p.getTime() <= t && t < n.getTime()).toBe(true);
      expect(n.getTime() - p.getTime()).toBe(7 * 86_400_000);
      expect([p.getUTCDay(), p.getUTCHours(), p.getUTCMinutes(), p.getUTCSeconds(), p.getUTCMilliseconds()]).toEqual([
        1, 9, 47, 0, 0,
      ]);
    }
  });
});

describe("runs", () => {
  test("a good run is one whose ask answered; failed is the only other status", () => {
    expect(RUN_STATUSES).toEqual(["ok", "no_coverage", "no_data", "failed"]);
    expect(GOOD_RUN_STATUSES).toEqual(["ok", "no_coverage", "no_data"]);
    expect(RUN_STATUSES.filter(isGoodRun)).toEqual(["ok", "no_coverage", "no_data"]);
  });
});

describe("isUuid", () => {
  test("uuids of any version, either case; nothing else", () => {
    expect(isUuid("3b241101-e2bb-4255-8caf-4136c566a962")).toBe(true);
    expect(isUuid("3B241101-E2BB-4255-8CAF-4136C566A962")).toBe(true);
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
    for (const s of [
      "",
      "public",
      "3b241101e2bb42558caf4136c566a962",
      "3b241101-e2bb-4255-8caf-4136c566a96",
      "3b241101-e2bb-4255-8caf-4136c566a9620",
      "3b241101-e2bb-4255-8caf-4136c566a96g",
      " 3b241101-e2bb-4255-8caf-4136c566a962",
      "1; drop table briefings",
    ]) {
      expect({ s, ok: isUuid(s) }).toEqual({ s, ok: false });
    }
  });
});
