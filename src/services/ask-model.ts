// An optional language model that phrases ask answers: any OpenAI-compatible chat-completions endpoint
// (ASK_LLM_URL, ASK_LLM_MODEL, ASK_LLM_KEY). It is handed the question, the tool calls' summaries and the
// deterministic draft, and asked to answer using only those numbers. Its text is a draft like any other: the caller
// verifies every number and serves the deterministic prose instead when one fails. Any failure here (refused,
// timed out, malformed) is null: the answer never depends on the model being up.
import type { Config } from "../config";
import type { Citation } from "../schemas/ask";

export type LanguageModel = {
  /** Base URL of the API, e.g. https://api.example.com/v1 (POST {url}/chat/completions). */
  url: string;
  model: string;
  key: string | null;
  timeoutMs: number;
  fetch: typeof fetch;
};

const SYSTEM =
  "You answer questions about economic statistics for a data API. Use ONLY the numbers, dates and units given in the " +
  "tool results and the draft; never compute, round differently or add a number that is not given. Write two to five " +
  "plain sentences, no markdown, no lists, and keep units and dates.";

export async function phraseWithModel(
  m: LanguageModel,
  input: { question: string; draft: string; citations: readonly Citation[] },
): Promise<string | null> {
  const results = input.citations.map((c) => `- ${c.tool} ${JSON.stringify(c.args)}: ${c.summary}`).join("\n");
  const body = {
    model: m.model,
    temperature: 0,
    messages: [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `Question: ${input.question}\n\nTool results:\n${results}\n\nDraft answer:\n${input.draft}\n\nRewrite the draft as a direct answer to the question.`,
      },
    ],
  };
  try {
    const res = await m.fetch(`${m.url.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(m.key ? { authorization: `Bearer ${m.key}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(m.timeoutMs),
    });
    if (!res.ok) return null;
    const json = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = json.choices?.[0]?.message?.content;
    return typeof text === "string" && text.trim() ? text.trim() : null;
  } catch {
    return null;
  }
}

/** The configured model (ASK_LLM_*), or null. `fetchImpl`: tests may pass their own; the global fetch otherwise. */
export function languageModelOf(
  config: Pick<Config, "askModel">,
  fetchImpl: typeof fetch = fetch,
): LanguageModel | null {
  return config.askModel ? { ...config.askModel, fetch: fetchImpl } : null;
}
