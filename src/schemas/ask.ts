// GET /v1/ask (spec "GET /v1/ask", "Ask response"): the question's parameters and the answer object. The answer is
// its own object (not `{ data, meta }`); every citation's `args` are the query parameters of the REST endpoint named
// by its tool, so a client can replay it and get the same numbers.
import { z } from "@hono/zod-openapi";
import { WINDOW_SYNTAX, parseWindow } from "../domain/window";
import { codeParam, freshnessSchema } from "./observations";

const q = (name: string) => ({ param: { name, in: "query" as const } });

export const ASK_QUESTION_MAX = 500;
export const ASK_DEPTHS = ["default", "briefing"] as const;
export type AskDepth = (typeof ASK_DEPTHS)[number];

export const windowParam = (example: string) =>
  z
    .string()
    .refine((s) => parseWindow(s) !== null, { message: `must be ${WINDOW_SYNTAX}; at most 365250d, 12000m or 1000y` })
    .openapi({
      ...q("window"),
      description: `${WINDOW_SYNTAX}. Overrides a time phrase in the question.`,
      example,
      pattern: "^(all|[1-9][0-9]{0,6}[dmy])$",
    });

export const askQuerySchema = z.object({
  q: z
    .string()
    .min(1, { message: `must be 1 to ${ASK_QUESTION_MAX} characters` })
    .max(ASK_QUESTION_MAX, { message: `must be 1 to ${ASK_QUESTION_MAX} characters` })
    .refine((s) => s.trim().length > 0, { message: "must contain a question, not only spaces" })
    .openapi({
      ...q("q"),
      description: `The question in plain words, 1 to ${ASK_QUESTION_MAX} characters.`,
      example: "What is the unemployment rate in Texas?",
    }),
  region: codeParam(
    "region",
    "Region hint (FIPS code or what people type): used when the question names no place.",
    "48",
  ).optional(),
  window: windowParam("5y").optional(),
  depth: z
    .enum(["briefing"], { message: "must be briefing (or left out for the default pass)" })
    .optional()
    .openapi({
      ...q("depth"),
      description:
        "`briefing` runs a deeper pass (more regions, peers and signals) at the briefing price; leave it out for the default pass.",
      example: "briefing",
    }),
});

export type AskQuery = z.output<typeof askQuerySchema>;

// The spec's four, plus the reads an answer to a change, a ranking or a move makes: get_observations (replays against
// /v1/observations, with transform=yoy for a 12-month change), rank_regions (every place of a kind at one period;
// its summary gives each named place's replay through /v1/observations) and get_flows (replays against /v1/flows).
export const ASK_TOOLS = [
  "search_indicators",
  "get_latest",
  "get_insights",
  "get_active_signals",
  "get_observations",
  "rank_regions",
  "get_flows",
] as const;
export type AskTool = (typeof ASK_TOOLS)[number];
export const ASK_STATUSES = ["ok", "no_coverage", "no_data"] as const;
export type AskStatus = (typeof ASK_STATUSES)[number];

export const citationSchema = z
  .object({
    tool: z
      .enum(ASK_TOOLS)
      .openapi({ description: "The tool (and REST operation of the same operationId) that was called." }),
    args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).openapi({
      description:
        "Its arguments: the query parameters of the REST endpoint (get_latest: /v1/observations/latest, get_observations: /v1/observations, get_insights: /v1/insights, get_active_signals: /v1/signals/active, search_indicators: /v1/indicators, get_flows: /v1/flows); rank_regions: the indicator, region type (and parent) and date every place was read at.",
      example: { indicator: "LAUST03A", region: "48" },
    }),
    summary: z.string().openapi({
      description: "What the call returned, in one line with its numbers.",
      example: "Texas, unemployment rate 2018: 3.9 percent",
    }),
  })
  .openapi("AskCitation");

export type Citation = z.output<typeof citationSchema>;

const askFreshnessSchema = freshnessSchema
  .extend({ indicator: z.string(), region: z.string() })
  .openapi("AskFreshness");

export const askResponseSchema = z
  .object({
    answer: z.string().nullable().openapi({
      description:
        "Prose answering the question from the tool results, with units and dates; null when no coverage or no data.",
    }),
    citations: z.array(citationSchema).openapi({ description: "The tool calls actually executed, in order." }),
    resolved: z.object({
      indicators: z
        .array(z.object({ code: z.string(), source: z.string(), name: z.string(), concept: z.string().optional() }))
        .openapi({ description: "The series the question resolved to (a concept's series per region kind)." }),
      regions: z.array(z.object({ code: z.string(), name: z.string(), type: z.string() })),
      window: z.string().openapi({
        description:
          "The window read (`all` or N with d, m, y), from `window`, a time phrase in the question, or the default.",
      }),
    }),
    grounded: z
      .boolean()
      .openapi({ description: "False if any number in the prose failed verification against the tool results." }),
    truncated: z
      .boolean()
      .openapi({ description: "True when the per-request ceilings on rounds and tool calls ended work early." }),
    status: z.enum(ASK_STATUSES),
    message: z
      .string()
      .optional()
      .openapi({ description: "On no_coverage (what is covered that is close) and no_data." }),
    meta: z.object({
      depth: z.enum(ASK_DEPTHS),
      rounds: z.number().int().min(0),
      toolCalls: z.number().int().min(0),
      model: z.string().openapi({
        description: "Who phrased the answer: the deterministic composer, or the configured language model.",
      }),
      freshness: z.array(askFreshnessSchema).optional().openapi({
        description:
          "How current each series the answer read is, as on the data endpoints' `meta.freshness`: one item per series and place read (absent when nothing was read).",
      }),
    }),
  })
  .openapi("AskResponse");

export type AskResponse = z.output<typeof askResponseSchema>;
