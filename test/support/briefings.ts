// Test askers for briefing runs (the Asker contract of src/services/ask.ts): one that answers with a fixed, valid Ask
// response built here, and one that fails as a database fault would. Tests that check what a run stores use these,
// never the ask service's own answers.
import type { Asker, AskInput } from "../../src/services/ask";
import { askResponseSchema, type AskResponse } from "../../src/schemas/ask";

/** A covered answer to `q`, as the ask service shapes one (validated against the contract's schema). */
export function okAnswer(label: string, input?: Pick<AskInput, "depth" | "window">): AskResponse {
  return askResponseSchema.parse({
    answer: `Texas unemployment rate, ${label}: 4.1 percent.`,
    citations: [
      {
        tool: "get_latest",
        args: { indicator: "LASST48", region: "48" },
        summary: `Texas, unemployment rate ${label}: 4.1 percent`,
      },
    ],
    resolved: {
      indicators: [{ code: "LASST48", source: "bls", name: "Unemployment rate" }],
      regions: [{ code: "48", name: "Texas", type: "state" }],
      window: input?.window ?? "5y",
    },
    grounded: true,
    truncated: false,
    status: "ok",
    meta: { depth: input?.depth ?? "briefing", rounds: 2, toolCalls: 3, model: "test" },
  });
}

/** Answers every question with okAnswer(label), recording what it was asked. */
export function answeringAsker(
  label = "2025-09",
): Asker & { asked: { input: AskInput; signals: boolean | undefined }[] } {
  const asked: { input: AskInput; signals: boolean | undefined }[] = [];
  return {
    asked,
    async answer(input, opts) {
      asked.push({ input, signals: opts?.signals });
      return okAnswer(label, input);
    },
  };
}

/** Throws as the ask service does when its database fails. */
export function failingAsker(message = "connection terminated unexpectedly"): Asker & { calls: number } {
  const out = {
    calls: 0,
    async answer(): Promise<AskResponse> {
      out.calls++;
      throw new Error(message);
    },
  };
  return out;
}
