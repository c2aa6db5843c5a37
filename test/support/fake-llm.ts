// A loopback stand-in for an OpenAI-compatible chat-completions endpoint (Bun.serve on 127.0.0.1, port 0), speaking
// the real wire format so the ask endpoint's model client is tested against what it will meet:
//
//   POST {url}/chat/completions   (url ends in /v1, the base URL OpenAI-compatible clients take)
//     request   { model, messages: [{ role, content }], temperature?, ... }, header Authorization: Bearer <key>
//     200       { id: "chatcmpl-...", object: "chat.completion", created (unix seconds), model,
//                 choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null,
//                 finish_reason: "stop" }], usage: { prompt_tokens, completion_tokens, total_tokens } }
//     errors    { error: { message, type, param, code } } with the HTTP status, as OpenAI answers them: 401 for a
//               missing key (code null) or a wrong one (code "invalid_api_key", the key masked in the message), 400 for
//               a body that is not JSON, no model, or no messages, 404 "Invalid URL (METHOD /path)" elsewhere.
//
// The test scripts the answer: `reply(request)` returns the assistant's text (a faithful paraphrase, or one with an
// invented number), or a raw `{ status, body }` (a 500, a 429; a string body is sent verbatim, so malformed JSON is
// possible), or `{ delayMs, then }` to answer late (a client timeout). The `llm` helpers build each of these.
// Every request is recorded. Token counts are a deterministic estimate (about 4 characters per token), not a
// tokenizer; `created` comes from the injected clock.
import type { Clock } from "../../src/deps";
import { registerCleanup } from "./cleanup";

export type ChatMessage = { role: string; content: string | null; [field: string]: unknown };
export type ChatCompletionRequest = {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  [field: string]: unknown;
};

export type LlmReply =
  /** The assistant's content: a 200 chat.completion. */
  | string
  /** A raw answer: an object body is sent as JSON, a string body verbatim. */
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** Answer `then` after `delayMs` (never, if the client gives up first or the fake stops). */
  | { delayMs: number; then: LlmReply };

export type LlmCall = { method: string; path: string; authorization: string | null; body: unknown; status: number };

export type FakeLlmOptions = {
  /** The API key the fake accepts (Authorization: Bearer <key>). */
  key: string;
  reply: (request: ChatCompletionRequest) => LlmReply | Promise<LlmReply>;
  clock?: Clock;
};

export type FakeLlm = {
  /** Base URL ending in /v1 (what OpenAI-compatible clients take); the endpoint is `${url}/chat/completions`. */
  url: string;
  /** Bodies of the well-formed, authenticated chat-completions requests, in arrival order (what reply() saw). */
  requests: ChatCompletionRequest[];
  /** Every HTTP request received, with the status answered (0 while a delayed answer is pending). */
  calls: LlmCall[];
  /** Requests whose delayed answer is still pending. */
  readonly pending: number;
  stop(): Promise<void>;
};

const FIXED_CLOCK: Clock = { now: () => new Date("2026-11-24T12:00:00Z") };

const openAiError = (message: string, type: string, param: string | null = null, code: string | null = null) => ({
  error: { message, type, param, code },
});

/** Builders for the scripted modes. */
export const llm = {
  /** A 200 answer with this content (a faithful paraphrase, or one with an invented number). */
  text: (content: string): LlmReply => content,
  /** An OpenAI-shaped error answer. */
  error: (status: number, message: string, type: string, code: string | null = null): LlmReply => ({
    status,
    body: openAiError(message, type, null, code),
  }),
  /** The 500 OpenAI answers when its side fails. */
  serverError: (): LlmReply => ({
    status: 500,
    body: openAiError("The server had an error while processing your request. Sorry about that!", "server_error"),
  }),
  /** A 429 with Retry-After, as under a rate limit. */
  rateLimited: (retryAfterSeconds = 1): LlmReply => ({
    status: 429,
    headers: { "retry-after": String(retryAfterSeconds) },
    body: openAiError(
      "Rate limit reached for requests. Please try again later.",
      "requests",
      null,
      "rate_limit_exceeded",
    ),
  }),
  /** A 200 whose body is cut off mid-JSON. */
  malformed: (): LlmReply => ({
    status: 200,
    body: '{"id":"chatcmpl-cut","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis',
  }),
  /** `reply` after `ms` milliseconds: longer than the client's timeout, it is a timeout. */
  delayed: (ms: number, reply: LlmReply): LlmReply => ({ delayMs: ms, then: reply }),
};

/** The text of the last user message of a request (what a scripted reply usually keys on). */
export function lastUserContent(request: ChatCompletionRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m.role === "user") return typeof m.content === "string" ? m.content : "";
  }
  return "";
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** "sk-test-abcdef1234" -> "sk-test-******1234", the way OpenAI quotes a wrong key. */
function maskKey(key: string): string {
  if (key.length <= 12) return "*".repeat(key.length);
  return `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}`;
}

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

export async function startFakeLlm(options: FakeLlmOptions): Promise<FakeLlm> {
  const clock = options.clock ?? FIXED_CLOCK;
  const requests: ChatCompletionRequest[] = [];
  const calls: LlmCall[] = [];
  const waiting = new Set<() => void>();
  let served = 0;

  function completion(request: ChatCompletionRequest, content: string) {
    served++;
    const promptTokens = request.messages.reduce(
      (n, m) => n + 3 + estimateTokens(typeof m.content === "string" ? m.content : ""),
      3,
    );
    const completionTokens = Math.max(1, estimateTokens(content));
    return {
      id: `chatcmpl-fake${String(served).padStart(6, "0")}`,
      object: "chat.completion",
      created: Math.floor(clock.now().getTime() / 1000),
      model: request.model,
      choices: [
        { index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
      system_fingerprint: "fp_fake",
    };
  }

  async function answer(
    request: ChatCompletionRequest,
    reply: LlmReply,
    signal: AbortSignal,
  ): Promise<Response | null> {
    if (typeof reply === "string") return json(completion(request, reply), 200);
    if ("delayMs" in reply) {
      const due = await new Promise<boolean>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          waiting.delete(release);
          resolve(false);
        };
        const timer = setTimeout(() => {
          waiting.delete(release);
          resolve(true);
        }, reply.delayMs);
        waiting.add(release);
        signal.addEventListener("abort", release, { once: true });
      });
      return due ? answer(request, reply.then, signal) : null;
    }
    return json(reply.body, reply.status, reply.headers);
  }

  async function handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const authorization = req.headers.get("authorization");
    const raw = req.method === "POST" ? await req.text() : "";
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      // kept as the raw text
    }
    const call: LlmCall = { method: req.method, path, authorization, body, status: 0 };
    calls.push(call);
    const done = (r: Response) => {
      call.status = r.status;
      return r;
    };

    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return done(json(openAiError(`Invalid URL (${req.method} ${path})`, "invalid_request_error"), 404));
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1]?.trim();
    if (!bearer) {
      return done(
        json(
          openAiError(
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
            "invalid_request_error",
          ),
          401,
        ),
      );
    }
    if (bearer !== options.key) {
      return done(
        json(
          openAiError(
            `Incorrect API key provided: ${maskKey(bearer)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            "invalid_request_error",
            null,
            "invalid_api_key",
          ),
          401,
        ),
      );
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return done(
        json(
          openAiError(
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
            "invalid_request_error",
          ),
          400,
        ),
      );
    }
    const request = body as ChatCompletionRequest;
    if (typeof request.model !== "string" || request.model === "") {
      return done(json(openAiError("you must provide a model parameter", "invalid_request_error"), 400));
    }
    if (!Array.isArray(request.messages)) {
      return done(
        json(
          openAiError(
            "Missing required parameter: 'messages'.",
            "invalid_request_error",
            "messages",
            "missing_required_parameter",
          ),
          400,
        ),
      );
    }
    if (request.messages.length === 0) {
      return done(
        json(
          openAiError(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
            "invalid_request_error",
            "messages",
            "empty_array",
          ),
          400,
        ),
      );
    }
    requests.push(request);
    const response = await answer(request, await options.reply(request), req.signal);
    // The client gave up (or the fake stopped) before a delayed answer was due: nobody reads this one.
    return done(response ?? new Response(null, { status: 499 }));
  }

  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const release of [...waiting]) release();
    await server.stop(true);
  };
  registerCleanup(stop);

  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    calls,
    get pending() {
      return waiting.size;
    },
    stop,
  };
}
