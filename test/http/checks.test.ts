// inOrder (src/http/checks.ts): the checks run in the order given, in one layer; the first answer ends the request,
// a check that waits is waited for before the next, and a check that throws is answered by onError.
import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app-env";
import { inOrder, type Check } from "../../src/http/checks";

function appWith(...checks: Check[]) {
  const app = new Hono<AppEnv>();
  const ran: string[] = [];
  app.use("*", inOrder(...checks));
  app.get("/p", (c) => (ran.push("handler"), c.text("handled")));
  app.onError((err, c) => c.text(`error: ${err.message}`, 400));
  return { app, ran };
}

describe("inOrder", () => {
  test("every check in order, then the handler; headers set by a check reach the answer", async () => {
    const seen: string[] = [];
    const { app, ran } = appWith(
      (c) => void (seen.push("a"), c.header("x-a", "1")),
      () => void seen.push("b"),
      () => (seen.push("c"), null),
    );
    const res = await app.request("/p");
    expect([res.status, await res.text(), res.headers.get("x-a")]).toEqual([200, "handled", "1"]);
    expect([...seen, ...ran]).toEqual(["a", "b", "c", "handler"]);
  });

  test("the first answer ends the request: later checks and the handler do not run", async () => {
    const seen: string[] = [];
    const { app, ran } = appWith(
      () => void seen.push("a"),
      (c) => (seen.push("b"), c.text("refused", 403)),
      () => void seen.push("c"),
    );
    const res = await app.request("/p");
    expect([res.status, await res.text()]).toEqual([403, "refused"]);
    expect([...seen, ...ran]).toEqual(["a", "b"]);
  });

  test("a check that waits is waited for, then the next runs; its answer ends the request as well", async () => {
    const seen: string[] = [];
    const later = (answer: boolean): Check => async (c) => {
      await Bun.sleep(1);
      seen.push("waited");
      return answer ? c.text("late refusal", 429) : null;
    };
    const passing = appWith(later(false), () => void seen.push("next"));
    expect([(await passing.app.request("/p")).status, [...seen, ...passing.ran]]).toEqual([200, ["waited", "next", "handler"]]);
    seen.length = 0;
    const refusing = appWith(later(true), () => void seen.push("next"));
    const res = await refusing.app.request("/p");
    expect([res.status, await res.text(), seen, refusing.ran]).toEqual([429, "late refusal", ["waited"], []]);
  });

  test("a check that throws is answered by onError", async () => {
    const { app, ran } = appWith(() => {
      throw new Error("bad query");
    });
    const res = await app.request("/p");
    expect([res.status, await res.text(), ran]).toEqual([400, "error: bad query", []]);
  });
});
