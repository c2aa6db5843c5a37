// The warm-up before "ready" (src/startup/warm-up.ts): what the first requests would otherwise pay for is done once,
// before the server listens.
import { afterAll, beforeAll, expect, setDefaultTimeout, spyOn, test } from "bun:test";
import { warmUp } from "../../src/startup/warm-up";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file seeds a database.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 120_000);
afterAll(async () => {
  await t.close();
});

test("the operations' parameter lists are built by the warm-up: the first /v1 request with a query does not build them", async () => {
  const documents = spyOn(t.app, "getOpenAPI31Document");
  await warmUp(t.app, t.deps);
  expect(documents).toHaveBeenCalledTimes(1);
  const first = await t.request("/v1/indicators?search=payrolls");
  expect(first.status).toBe(200);
  const region = await t.request("/v1/regions?parent=06");
  expect(region.status).toBe(200);
  expect(documents).toHaveBeenCalledTimes(1);
  documents.mockRestore();
});
