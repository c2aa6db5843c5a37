CREATE TABLE "briefing_runs" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"briefing_id" uuid NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"response" jsonb,
	"grounded" boolean,
	"truncated" boolean,
	"error" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	CONSTRAINT "briefing_runs_failed_has_error" CHECK (("briefing_runs"."status" = 'failed') = ("briefing_runs"."response" is null) and ("briefing_runs"."status" = 'failed') = ("briefing_runs"."error" is not null))
);--> statement-breakpoint
CREATE TABLE "briefings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_key_id" uuid,
	"slug" text,
	"name" text NOT NULL,
	"question" text NOT NULL,
	"cadence" text NOT NULL,
	"region_code" text,
	"window" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "briefings_public_xor_owned" CHECK (("briefings"."owner_key_id" is null) = ("briefings"."slug" is not null))
);--> statement-breakpoint
ALTER TABLE "briefing_runs" ADD CONSTRAINT "briefing_runs_briefing_id_briefings_id_fk" FOREIGN KEY ("briefing_id") REFERENCES "public"."briefings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefings" ADD CONSTRAINT "briefings_owner_key_id_api_keys_id_fk" FOREIGN KEY ("owner_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefings" ADD CONSTRAINT "briefings_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "briefing_runs_id_idx" ON "briefing_runs" USING btree ("id");--> statement-breakpoint
CREATE INDEX "briefing_runs_briefing_seq_idx" ON "briefing_runs" USING btree ("briefing_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "briefing_runs_good_occurrence_idx" ON "briefing_runs" USING btree ("briefing_id","scheduled_for") WHERE status <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "briefings_slug_idx" ON "briefings" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "briefings_owner_created_idx" ON "briefings" USING btree ("owner_key_id","created_at");
