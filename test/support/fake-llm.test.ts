// The fake chat-completions endpoint answers in OpenAI's wire format, checks the key, records what it is sent, and
// plays each scripted mode the ask tests use (paraphrase, invented number, 500, late answer, malformed JSON).
import { afterEach, describe, expect, test } from "bun:test";
import { ManualClock } from "./clock";
import { lastUserContent, llm, startFakeLlm, type FakeLlm, type LlmReply } from "./fake-llm";

const KEY = "sk-test-0123456789abcdef";
let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.stop();
  fake = null;
});

async function start(reply: (q: string) => LlmReply, clock?: ManualClock): Promise<FakeLlm> {
  fake = await startFakeLlm({ key: KEY, reply: (req) => reply(lastUserContent(req)), clock });
  return fake;
}

const body = {
  model: "gpt-4o-mini",
  temperature: 0,
  messages: [
    { role: "system", content: "Rephrase the facts. Use only their numbers." },
    { role: "user", content: "Texas, unemployment rate 2018: 3.9 percent" },
  ],
};

function post(f: FakeLlm, payload: unknown, key: string | null = KEY, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(`${f.url}/chat/completions`, {
    method: "POST",
    headers,
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
    ...init,
  });
}

describe("fake LLM (OpenAI-compatible chat completions)", () => {
  test("answers a chat.completion with the scripted content, the request's model, usage and the clock's time", async () => {
    const f = await start((q) => `Paraphrased: ${q}.`, new ManualClock("2026-11-24T15:00:00Z"));
    const res = await post(f, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const out = (await res.json()) as any;
    expect(out).toEqual({
      id: "chatcmpl-fake000001",
      object: "chat.completion",
      created: Date.UTC(2026, 10, 24, 15) / 1000,
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Paraphrased: Texas, unemployment rate 2018: 3.9 percent.",
            refusal: null,
          },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
      system_fingerprint: "fp_fake",
    });
    expect(out.usage.prompt_tokens).toBeGreaterThan(0);
    expect(out.usage.total_tokens).toBe(out.usage.prompt_tokens + out.usage.completion_tokens);
    expect(f.requests).toEqual([body]);
    expect(f.calls).toEqual([
      { method: "POST", path: "/v1/chat/completions", authorization: `Bearer ${KEY}`, body, status: 200 },
    ]);
    // Ids count up per answer.
    const second = (await (await post(f, body)).json()) as any;
    expect(second.id).toBe("chatcmpl-fake000002");
  });

  test("an invented number is passed through as scripted (the service, not the fake, must catch it)", async () => {
    const f = await start(() => llm.text("In 2018 the unemployment rate in Texas was 4.7 percent."));
    const out = (await (await post(f, body)).json()) as any;
    expect(out.choices[0].message.content).toBe("In 2018 the unemployment rate in Texas was 4.7 percent.");
  });

  test("a wrong key is a 401 in OpenAI's error shape, with the key masked; the reply is never asked", async () => {
    let asked = 0;
    const f = await start(() => {
      asked++;
      return "unused";
    });
    const res = await post(f, body, "sk-wrong-key-abcdefgh1234");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        message:
          "Incorrect API key provided: sk-wrong*************1234. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    });
    expect(asked).toBe(0);
    expect(f.requests).toEqual([]);
    expect(f.calls.map((c) => c.status)).toEqual([401]);
  });

  test("a missing key is a 401 with code null", async () => {
    const f = await start(() => "unused");
    const res = await post(f, body, null);
    expect(res.status).toBe(401);
    const out = (await res.json()) as any;
    expect(out.error.type).toBe("invalid_request_error");
    expect(out.error.code).toBeNull();
    expect(out.error.param).toBeNull();
    expect(out.error.message).toStartWith("You didn't provide an API key.");
  });

  test("bad requests: body not JSON, no model, no messages, empty messages, another path", async () => {
    const f = await start(() => "unused");
    const cases: [unknown, number, string | null][] = [
      ["{not json", 400, null],
      [{ messages: body.messages }, 400, null],
      [{ model: "m" }, 400, "missing_required_parameter"],
      [{ model: "m", messages: [] }, 400, "empty_array"],
    ];
    for (const [payload, status, code] of cases) {
      const res = await post(f, payload);
      expect(res.status).toBe(status);
      const out = (await res.json()) as any;
      expect(Object.keys(out.error).sort()).toEqual(["code", "message", "param", "type"]);
      expect(out.error.code).toBe(code);
    }
    const other = await fetch(`${f.url}/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
      body: "{}",
    });
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).error.message).toBe("Invalid URL (POST /v1/completions)");
    expect(f.requests).toEqual([]);
  });

  test("a scripted 500 and 429 come back with OpenAI's error body (and Retry-After)", async () => {
    const replies = [llm.serverError(), llm.rateLimited(7)];
    const f = await start(() => replies.shift()!);
    const failed = await post(f, body);
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as any).error.type).toBe("server_error");
    const limited = await post(f, body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(((await limited.json()) as any).error.code).toBe("rate_limit_exceeded");
    expect(f.requests.length).toBe(2);
  });

  test("malformed JSON: a 200 whose body does not parse", async () => {
    const f = await start(() => llm.malformed());
    const res = await post(f, body);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  test("a late answer: a client with a shorter timeout gives up; the fake drops the pending answer", async () => {
    const f = await start(() => llm.delayed(60_000, "too late"));
    const error = await post(f, body, KEY, { signal: AbortSignal.timeout(100) }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("TimeoutError");
    expect(f.requests.length).toBe(1);
    // The abort reaches the server (Bun passes it on as the request's signal), or stop() releases it: either way
    // nothing is left waiting and the call is closed as 499 (client closed request).
    await f.stop();
    expect(f.pending).toBe(0);
    for (let i = 0; i < 50 && f.calls[0].status === 0; i++) await Bun.sleep(10);
    expect(f.calls[0].status).toBe(499);
  });

  test("a short delay still answers", async () => {
    const f = await start(() => llm.delayed(20, "on time"));
    const out = (await (await post(f, body)).json()) as any;
    expect(out.choices[0].message.content).toBe("on time");
    expect(f.pending).toBe(0);
  });
});
