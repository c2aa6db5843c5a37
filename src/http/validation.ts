// zod failures become 400 INVALID_PARAMETER naming the parameter(s).
import type { Hook } from "@hono/zod-openapi";
import { envelope } from "../errors";

type Issue = { path: PropertyKey[]; message: string; code?: string };

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

export const validationHook: Hook<any, any, any, any> = (result, c) => {
  if (result.success) return;
  const target = (result as { target?: string }).target;
  const issues = (result.error as { issues: Issue[] }).issues.map((i) => repeatedQueryIssue(i, target, c.req.queries()) ?? i);
  const { parameters, message } = describeIssues(issues);
  return c.json(
    envelope("INVALID_PARAMETER", `Invalid ${parameters.length > 1 ? "parameters" : "parameter"} ${parameters.join(", ")}: ${message}`, {
      parameter: parameters[0],
      parameters,
      ...(target ? { in: target } : {}),
      issues: issues.map((i) => ({ path: i.path.map(String), message: i.message })),
    }),
    400,
  );
};
