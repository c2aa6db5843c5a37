// GET /v1/ask with a two-letter place code that is both a country's and a US state's.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

let t: TestApp;
let free: Record<string, string>;

beforeAll(async () => {
  t = await makeTestApp();
  free = (await testKey(t)).headers;
});
afterAll(() => t?.close());

const ask = async (params: Record<string, string>) =>
  (await t.getJson(`/v1/ask?${new URLSearchParams(params)}`, { headers: free })) as { status: number; body: any };

describe("a two-letter code read two ways", () => {
  test("the country as written when it holds the data; the state, said so, when only the state does", async () => {
    const germany = (await ask({ q: "unemployment rate in DE" })).body;
    expect(germany.resolved.regions.map((r: { code: string }) => r.code)).toEqual(["DE"]);
    expect(germany.answer).toContain("for the US state Delaware");
    // No unemployment rate is held for the Cayman Islands (KY): Kentucky's is the closest held answer.
    const kentucky = (await ask({ q: "unemployment rate in KY" })).body;
    expect(kentucky.resolved.regions.map((r: { code: string }) => r.code)).toEqual(["21"]);
    expect(kentucky.answer).toMatch(/^The unemployment rate in Kentucky was/);
    expect(kentucky.answer).toContain(
      "“KY” was read as the US state Kentucky: no unemployment rate is held for Cayman Islands",
    );
  });
});
