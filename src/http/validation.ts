// zod failures become 400 INVALID_PARAMETER naming the parameter(s); a FRED value on one of our query parameters
// (`frequency=m`, `transform=pch`) is answered with ours (domain/fred-habits.ts).
import type { Hook } from "@hono/zod-openapi";
import { translateFredValue, type FredTranslation } from "../domain/fred-habits";
import { envelope } from "../errors";

type Issue = { path: PropertyKey[]; message: string; code?: string; values?: unknown[] };

export function describeIssues(issues: Issue[]) {
  const parameters = [...new Set(issues.map((i) => String(i.path[0] ?? "body")))];
  const message = issues
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "body"}: ${i.message}`)
    .join("; ");
  return { parameters, message };
}

/** `?limit=1&limit=2` reaches a single-valued schema as an array: say so in words instead of zod's type error. */
function repeatedQueryIssue(issue: Issue, target: string | undefined, queries: Record<string, string[]>): Issue | null {
  if (target !== "query" || issue.code !== "invalid_type" || issue.path.length !== 1) return null;
  const count = queries[String(issue.path[0])]?.length ?? 0;
  return count > 1 ? { ...issue, message: `given ${count} times; pass it once` } : null;
}

/** FRED values among the refused query parameters given once; an enum's own values bound what may be suggested. */
function fredValues(issues: Issue[], target: string | undefined, queries: Record<string, string[]>): FredTranslation[] {
  if (target !== "query") return [];
  const out: FredTranslation[] = [];
  for (const issue of issues) {
    const name = String(issue.path[0]);
    const given = queries[name];
    if (issue.path.length !== 1 || given?.length !== 1) continue;
    const t = translateFredValue(name, given[0]!, issue.values);
    if (t && !out.some((o) => o.fred === t.fred)) out.push(t);
  }
  return out;
}

/** The 400 INVALID_PARAMETER envelope of a failed validation of `target`, given the request's query (name -> values). */
export function invalidParameters(rawIssues: Issue[], target: string | undefined, queries: Record<string, string[]>) {
  const issues = rawIssues.map((i) => repeatedQueryIssue(i, target, queries) ?? i);
  const { parameters, message } = describeIssues(issues);
  const fred = fredValues(issues, target, queries);
  return envelope(
    "INVALID_PARAMETER",
    `Invalid ${parameters.length > 1 ? "parameters" : "parameter"} ${parameters.join(", ")}: ${message}${fred.length ? `. ${fred.map((t) => t.message).join(" ")}` : ""}`,
    {
      parameter: parameters[0],
      parameters,
      ...(target ? { in: target } : {}),
      issues: issues.map((i) => ({ path: i.path.map(String), message: i.message })),
      ...(fred.length ? { fred } : {}),
    },
  );
}

export const validationHook: Hook<any, any, any, any> = (result, c) => {
  if (result.success) return;
  const target = (result as { target?: string }).target;
  return c.json(invalidParameters((result.error as { issues: Issue[] }).issues, target, c.req.queries()), 400);
};
