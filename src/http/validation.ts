// zod failures become 400 INVALID_PARAMETER naming the parameter(s).
import type { Hook } from "@hono/zod-openapi";
import { envelope } from "./errors";

type Issue = { path: PropertyKey[]; message: string; code?: string };

export function describeIssues(issues: Issue[]) {
  const parameters = [...new Set(issues.map((i) => String(i.path[0] ?? "body")))];
  const message = issues
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "body"}: ${i.message}`)
    .join("; ");
  return { parameters, message };
}

export const validationHook: Hook<any, any, any, any> = (result, c) => {
  if (result.success) return;
  const issues = (result.error as { issues: Issue[] }).issues;
  const { parameters, message } = describeIssues(issues);
  const target = (result as { target?: string }).target;
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
