// Briefings (spec "Briefing", "Briefings", "Limits"): the creation body, the public catalog entry, a saved briefing,
// a run (the stored Ask response with its timings) and the envelopes of the briefing routes.
import { z } from "@hono/zod-openapi";
import {
  BRIEFING_CADENCES,
  BRIEFING_NAME_MAX,
  BRIEFING_QUESTION_MAX,
  BRIEFING_RUNS_LIMIT,
  RUN_STATUSES,
} from "../domain/briefings";
import { WINDOW_SYNTAX, parseWindow } from "../domain/window";
import { askResponseSchema } from "./ask";
import { integerQuery } from "./query";

const text = (label: string, max: number) =>
  z
    .string()
    .min(1, { message: `must be 1 to ${max} characters` })
    .max(max, { message: `must be 1 to ${max} characters` })
    .refine((s) => s.trim().length > 0, { message: `must contain ${label}, not only spaces` });

export const createBriefingBodySchema = z
  .object({
    name: text("a name", BRIEFING_NAME_MAX).openapi({
      description: `What to call it, 1 to ${BRIEFING_NAME_MAX} characters.`,
      example: "Texas jobs",
    }),
    question: text("a question", BRIEFING_QUESTION_MAX).openapi({
      description: `The question asked every week, in plain words, 1 to ${BRIEFING_QUESTION_MAX} characters (as \`q\` of GET /v1/ask).`,
      example: "How is the unemployment rate in Texas moving?",
    }),
    cadence: z
      .enum(BRIEFING_CADENCES, { message: "must be weekly (the only cadence)" })
      .openapi({ description: "How often it runs: `weekly` only." }),
    region: z.string().trim().min(1).max(200).optional().openapi({
      description:
        "Region hint (code or what people type), used when the question names no place; an unknown region is a 404.",
      example: "48",
    }),
    window: z
      .string()
      .refine((s) => parseWindow(s) !== null, { message: `must be ${WINDOW_SYNTAX}; at most 365250d, 12000m or 1000y` })
      .optional()
      .openapi({
        description: `${WINDOW_SYNTAX}. Overrides a time phrase in the question.`,
        example: "2y",
        pattern: "^(all|[1-9][0-9]{0,6}[dmy])$",
      }),
  })
  .openapi("CreateBriefingRequest");

export type CreateBriefingBody = z.output<typeof createBriefingBodySchema>;

const lastRunAt = z
  .string()
  .datetime()
  .nullable()
  .openapi({ description: "When its latest successful run finished; null before the first one." });

export const publicBriefingSchema = z
  .object({
    slug: z.string().max(200).openapi({ example: "us-labor-market" }),
    name: z.string(),
    question: z.string(),
    cadence: z.enum(BRIEFING_CADENCES),
    last_run_at: lastRunAt,
  })
  .openapi("PublicBriefing");

export const briefingSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    question: z.string(),
    cadence: z.enum(BRIEFING_CADENCES),
    region: z
      .string()
      .nullable()
      .openapi({ description: "The region hint as a canonical code; null when none was given." }),
    window: z
      .string()
      .nullable()
      .openapi({ description: "The window asked for; null: the ask's default (or a time phrase in the question)." }),
    created_at: z.string().datetime(),
    last_run_at: lastRunAt,
    next_run_at: z
      .string()
      .datetime()
      .openapi({ description: "Its next weekly run (Mondays, 06:00 to 11:59 UTC, at a minute of its own)." }),
  })
  .openapi("Briefing");

export const briefingRunSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(RUN_STATUSES).openapi({
      description: "The answer's status (ok, no_coverage, no_data), or failed when the run could not answer.",
    }),
    scheduled_for: z.string().datetime().openapi({ description: "The weekly occurrence the run answers for." }),
    started_at: z.string().datetime(),
    finished_at: z.string().datetime(),
    duration_ms: z.number().int().min(0),
    response: askResponseSchema.nullable().openapi({
      description:
        "The stored answer with its full citation trace, as GET /v1/ask?depth=briefing answered it; null when the run failed.",
    }),
    error: z.string().nullable().openapi({ description: "Why the run failed; null otherwise." }),
  })
  .openapi("BriefingRun");

export type BriefingRunOut = z.output<typeof briefingRunSchema>;

export const briefingDetailSchema = briefingSchema
  .extend({
    latest_run: briefingRunSchema.nullable().openapi({
      description: "Its latest successful run (a failed run never replaces it); null before the first one.",
    }),
  })
  .openapi("BriefingDetail");

export const publicBriefingListResponseSchema = z
  .object({ data: z.array(publicBriefingSchema), meta: z.object({ count: z.number().int() }) })
  .openapi("PublicBriefingList");

export const publicBriefingReadResponseSchema = z
  .object({
    data: publicBriefingSchema
      .omit({ last_run_at: true })
      .extend({ run: briefingRunSchema.openapi({ description: "The latest successful run." }) }),
    meta: z.object({ next_run_at: z.string().datetime().openapi({ description: "When the briefing runs next." }) }),
  })
  .openapi("PublicBriefingRead");

export const briefingListResponseSchema = z
  .object({ data: z.array(briefingSchema), meta: z.object({ count: z.number().int(), max_per_key: z.number().int() }) })
  .openapi("BriefingList");

export const briefingDetailResponseSchema = z.object({ data: briefingDetailSchema }).openapi("BriefingDetailResponse");

export const briefingRunListResponseSchema = z
  .object({ data: z.array(briefingRunSchema), meta: z.object({ limit: z.number().int(), count: z.number().int() }) })
  .openapi("BriefingRunList");

export const deleteBriefingResponseSchema = z
  .object({ data: z.object({ id: z.string().uuid(), deleted: z.literal(true) }) })
  .openapi("DeleteBriefingResponse");

// A malformed id is not a 400: it names no briefing (404), as an unknown one does, so ids cannot be probed; so is any
// slug that is not a public briefing's. Only a value longer than any code (over 200 characters) is a 400.
export const briefingIdParamsSchema = z.object({
  id: z
    .string()
    .max(200)
    .openapi({
      param: { name: "id", in: "path" },
      description: "The briefing's id.",
      example: "3b241101-e2bb-4255-8caf-4136c566a962",
    }),
});

export const publicSlugParamsSchema = z.object({
  slug: z
    .string()
    .max(200)
    .openapi({
      param: { name: "slug", in: "path" },
      description: "The public briefing's slug (GET /v1/briefings/public).",
      example: "us-labor-market",
    }),
});

export const briefingRunsQuerySchema = z.object({
  limit: integerQuery({
    name: "limit",
    min: BRIEFING_RUNS_LIMIT.min,
    max: BRIEFING_RUNS_LIMIT.max,
    default: BRIEFING_RUNS_LIMIT.default,
    description: `Runs to return, newest first, ${BRIEFING_RUNS_LIMIT.min} to ${BRIEFING_RUNS_LIMIT.max}.`,
  }),
});
