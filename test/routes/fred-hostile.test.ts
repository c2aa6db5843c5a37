// A hostile client against every /fred/ operation of the app's own /openapi.json, as test/e2e/bad-input.test.ts is
// for the rest of the API, but held to FRED's error document instead of the envelope: malformed, empty, huge and
// repeated values of every query parameter, raw malformed escapes. Every answer is below 500, carries X-Request-Id,
// shows no stack trace and never repeats the api_key; an error is FRED's JSON or XML document with its status as
// error_code (the API's envelope only for what the request guard refuses before any route: a NUL character, a
// malformed escape, a repeated parameter).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp } from "../support/app";

setDefaultTimeout(300_000);

const t = await makeTestApp();
t.clock.set("2026-11-29T12:00:00Z");
afterAll(() => t.close());
const doc = (await (await t.app.request("/openapi.json")).json()) as Record<string, any>;
const ops = Object.entries<Record<string, any>>(doc.paths)
  .filter(([path]) => path.startsWith("/fred/"))
  .map(([path, item]) => ({
    path,
    params: (item.get.parameters as { name: string; in: string }[]).filter((p) => p.in === "query").map((p) => p.name),
  }));

const SECRET = "abcdefghijklmnopqrstuvwxyz012345";
const BASE: Record<string, string> = { series_id: "PAYEMS", search_text: "payrolls", api_key: SECRET };
const VALUES = [
  "",
  " ",
  "x".repeat(10_000),
  "𝔘ñí©ødé ✓ 中文 🇺🇸",
  "../../etc/passwd",
  "'; DROP TABLE indicators; --",
  "<script>alert(1)</script>",
  '"',
  "%",
  "_",
  "\\",
  "null",
  "[]",
  "{}",
  "a,b,,c",
  ",",
  "__proto__",
  "1e3",
  "0x10",
  "+5",
  "1.5",
  "-1",
  "0",
  "99999999999999999999",
  "2024-02-30",
  "2023-02-29",
  "24-01-01",
  "2024-01-01T00:00:00Z",
  "9999-12-31",
  "1776-07-04",
  "desc",
  "json",
  "xml",
  "q",
  "wesa",
  "eop",
  "4",
];
const RAW = ["%FF", "%E0%A4%A", "%00", "a%00b", "%2500"];
const STACK = [/\n\s*at\s/, /\.tsx?:\d+/, /node_modules/, /\b(TypeError|ReferenceError|SyntaxError|RangeError)\b/];
const FRED_XML = /^<\?xml version="1\.0" encoding="utf-8" \?>\n<error code="(\d{3})" message="[^"<>]+"\/>\n$/;

function problems(label: string, res: Response, body: string): string[] {
  const out: string[] = [];
  if (res.status >= 500) out.push(`${label}: status ${res.status}`);
  if (!res.headers.get("x-request-id")) out.push(`${label}: no X-Request-Id`);
  if (STACK.some((re) => re.test(body))) out.push(`${label}: stack text`);
  if (body.includes(SECRET)) out.push(`${label}: the api_key is repeated`);
  if (res.status >= 400) {
    const xml = FRED_XML.exec(body);
    let json: any = null;
    try {
      json = JSON.parse(body);
    } catch {
      // not JSON: XML is checked above
    }
    const fredJson =
      json && json.error_code === res.status && typeof json.error_message === "string" && json.error_message.length > 0;
    const envelope = json && json.error && typeof json.error.code === "string";
    if (!(xml && Number(xml[1]) === res.status) && !fredJson && !envelope)
      out.push(`${label}: error ${res.status} is neither FRED's document nor the envelope: ${body.slice(0, 200)}`);
  }
  return out;
}

const query = (pairs: [string, string][], raw = "") =>
  [...pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`), ...(raw ? [raw] : [])].join("&");

describe("every /fred/ operation under hostile query values", () => {
  test("the operations are found in the contract", () => {
    expect(ops.map((o) => o.path).sort()).toEqual([
      "/fred/series",
      "/fred/series/observations",
      "/fred/series/search",
      "/fred/series/vintagedates",
    ]);
  });
  for (const op of ops) {
    test(op.path, async () => {
      const found: string[] = [];
      const base = op.params.filter((p) => BASE[p] !== undefined).map((p): [string, string] => [p, BASE[p]]);
      for (const fileType of ["json", "xml"]) {
        const ok = await t.app.request(`${op.path}?${query([...base, ["file_type", fileType]])}`);
        const okBody = await ok.text();
        found.push(...problems(`${op.path} baseline ${fileType}`, ok, okBody));
        if (ok.status !== 200) found.push(`${op.path} baseline ${fileType}: ${ok.status} ${okBody.slice(0, 200)}`);
      }
      for (const name of op.params) {
        const rest = base.filter(([k]) => k !== name);
        for (const v of VALUES) {
          for (const fileType of name === "file_type" ? [] : ["json", "xml"]) {
            const res = await t.app.request(`${op.path}?${query([...rest, ["file_type", fileType], [name, v]])}`);
            found.push(
              ...problems(`${op.path} ${name}=${JSON.stringify(v.slice(0, 40))} (${fileType})`, res, await res.text()),
            );
          }
          if (name === "file_type") {
            const res = await t.app.request(`${op.path}?${query([...rest, [name, v]])}`);
            found.push(...problems(`${op.path} file_type=${JSON.stringify(v.slice(0, 40))}`, res, await res.text()));
          }
        }
        for (const raw of RAW) {
          const res = await t.app.request(`${op.path}?${query(rest, `${name}=${raw}`)}`);
          found.push(...problems(`${op.path} ${name}=<raw ${raw}>`, res, await res.text()));
        }
        const twice = await t.app.request(`${op.path}?${query([...rest, [name, "a"], [name, "b"]])}`);
        found.push(...problems(`${op.path} ${name} twice`, twice, await twice.text()));
      }
      expect(found).toEqual([]);
    });
  }
});
