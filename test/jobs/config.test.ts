// Job configuration (src/config.ts): defaults, every bound at its edge and one past it, and REFRESH_SCHEDULES.
import { describe, expect, test } from "bun:test";
import { ConfigError, DEFAULT_REFRESH_SCHEDULES, loadConfig, parseRefreshSchedules } from "../../src/config";

const jobs = (env: Record<string, string> = {}) => loadConfig(env).jobs;
const refused = (env: Record<string, string>) => expect(() => loadConfig(env)).toThrow(ConfigError);

describe("job settings", () => {
  test("defaults", () => {
    expect(jobs()).toEqual({
      inProcess: true,
      concurrency: null,
      poolMax: 3,
      pollSeconds: 2,
      superviseSeconds: 30,
      provision: {
        retryLimit: 4,
        retryDelaySeconds: 5,
        retryDelayMaxSeconds: 120,
        expireSeconds: 300,
        heartbeatSeconds: 30,
        retryAfterSeconds: 5,
        failureCooldownSeconds: 900,
        limits: {
          perClientPerMinute: 5,
          perSourcePerMinute: 10,
          upstreamShare: 0.25,
          anonymousQueueMax: 50,
          queueMax: 500,
        },
      },
      refresh: {
        timezone: "America/New_York",
        schedules: [
          { source: "bls", cron: "45 8 * * 1-5" },
          { source: "census", cron: "0 6 * * 1" },
          { source: "fred", cron: "30 9,17 * * 1-5" },
          { source: "worldbank", cron: "0 5 * * 0" },
        ],
      },
    });
  });

  test("JOBS=off only enqueues", () => {
    expect(jobs({ JOBS: "off" }).inProcess).toBe(false);
    refused({ JOBS: "no" });
  });

  test("bounds, at the edge and one past it", () => {
    expect(jobs({ JOBS_CONCURRENCY: "1" }).concurrency).toBe(1);
    expect(jobs({ JOBS_CONCURRENCY: "32" }).concurrency).toBe(32);
    refused({ JOBS_CONCURRENCY: "0" });
    refused({ JOBS_CONCURRENCY: "33" });
    expect(jobs({ JOBS_POLL_SECONDS: "0.5" }).pollSeconds).toBe(0.5);
    refused({ JOBS_POLL_SECONDS: "0.49" });
    expect(jobs({ JOBS_POOL_MAX: "20" }).poolMax).toBe(20);
    refused({ JOBS_POOL_MAX: "21" });
    refused({ JOBS_POOL_MAX: "0" });
    expect(jobs({ JOBS_SUPERVISE_SECONDS: "1" }).superviseSeconds).toBe(1);
    refused({ JOBS_SUPERVISE_SECONDS: "0" });
    expect(jobs({ PROVISION_RETRY_LIMIT: "0" }).provision.retryLimit).toBe(0);
    expect(jobs({ PROVISION_RETRY_LIMIT: "20" }).provision.retryLimit).toBe(20);
    refused({ PROVISION_RETRY_LIMIT: "21" });
    refused({ PROVISION_RETRY_LIMIT: "-1" });
    refused({ PROVISION_RETRY_DELAY_SECONDS: "0" });
    expect(jobs({ PROVISION_EXPIRE_SECONDS: "1" }).provision.expireSeconds).toBe(1);
    refused({ PROVISION_EXPIRE_SECONDS: "0" });
    expect(jobs({ PROVISION_RETRY_AFTER_SECONDS: "1" }).provision.retryAfterSeconds).toBe(1);
    refused({ PROVISION_RETRY_AFTER_SECONDS: "0" });
    expect(jobs({ PROVISION_FAILURE_COOLDOWN_SECONDS: "604800" }).provision.failureCooldownSeconds).toBe(604_800);
    refused({ PROVISION_FAILURE_COOLDOWN_SECONDS: "604801" });
  });

  test("a heartbeat is off (0) or at least 10 s, as pg-boss requires", () => {
    expect(jobs({ PROVISION_HEARTBEAT_SECONDS: "0" }).provision.heartbeatSeconds).toBeNull();
    expect(jobs({ PROVISION_HEARTBEAT_SECONDS: "10" }).provision.heartbeatSeconds).toBe(10);
    refused({ PROVISION_HEARTBEAT_SECONDS: "9" });
  });

  test("the longest backoff is never shorter than the first delay", () => {
    expect(
      jobs({ PROVISION_RETRY_DELAY_SECONDS: "60", PROVISION_RETRY_DELAY_MAX_SECONDS: "10" }).provision,
    ).toMatchObject({ retryDelaySeconds: 60, retryDelayMaxSeconds: 60 });
  });

  test("REFRESH_TZ must be an IANA time zone", () => {
    expect(jobs({ REFRESH_TZ: "UTC" }).refresh.timezone).toBe("UTC");
    expect(() => loadConfig({ REFRESH_TZ: "Mars/Olympus" })).toThrow(
      "REFRESH_TZ: 'Mars/Olympus' is not an IANA time zone",
    );
  });
});

describe("REFRESH_SCHEDULES", () => {
  test("unset: the defaults, by source", () => {
    expect(parseRefreshSchedules(undefined)).toEqual(
      Object.entries(DEFAULT_REFRESH_SCHEDULES)
        .map(([source, cron]) => ({ source, cron }))
        .sort((a, b) => a.source.localeCompare(b.source)),
    );
  });
  test("overrides, a new source, off, extra spaces and a trailing ;", () => {
    expect(parseRefreshSchedules(" fred = 0  18 * * 1-5 ; census=off; irs-soi=0 4 1 * *;")).toEqual([
      { source: "bls", cron: "45 8 * * 1-5" },
      { source: "census", cron: null },
      { source: "fred", cron: "0 18 * * 1-5" },
      { source: "irs-soi", cron: "0 4 1 * *" },
      { source: "worldbank", cron: "0 5 * * 0" },
    ]);
  });
  test("a cron with commas in a field (the separator between sources is ;)", () => {
    expect(parseRefreshSchedules("bls=30 8,10 * * 1-5").find((s) => s.source === "bls")!.cron).toBe("30 8,10 * * 1-5");
  });
  test("refused: no source, a bad source name, four or six fields", () => {
    expect(() => parseRefreshSchedules("=0 6 * * 1")).toThrow("REFRESH_SCHEDULES: '=0 6 * * 1' is not source=cron");
    expect(() => parseRefreshSchedules("Fred=0 6 * * 1")).toThrow(ConfigError);
    expect(() => parseRefreshSchedules("fred")).toThrow(ConfigError);
    expect(() => parseRefreshSchedules("fred=0 6 * *")).toThrow(
      "REFRESH_SCHEDULES: '0 6 * *' (for fred) is not a cron of five fields",
    );
    expect(() => parseRefreshSchedules("fred=0 0 6 * * 1")).toThrow(ConfigError);
  });
});
