// Helpers for tests that need keys: issue through the real services, authenticate like a client would.
import { issueKey, type IssueKeyInput } from "../../src/services/keys";
import { createSubscription, type CreateSubscriptionInput } from "../../src/services/billing";
import type { TestApp } from "./app";

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const jsonBody = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

export async function testKey(t: TestApp, input: Partial<IssueKeyInput> = {}) {
  const { key, row } = await issueKey(t.deps, { plan: "free", ...input });
  return { key, row, headers: bearer(key) };
}

export async function testSubscription(t: TestApp, input: Partial<CreateSubscriptionInput> = {}) {
  const out = await createSubscription(t.deps, {
    plan: "developer",
    email: "billing@example.com",
    provider: "manual",
    ...input,
  });
  return { ...out, headers: bearer(out.key) };
}

/** The `env` argument of app.request that makes the request come from `ip` (what Bun.serve passes in production). */
export const fromIp = (ip: string) => ({ requestIP: () => ({ address: ip, family: "IPv4", port: 40000 }) });
