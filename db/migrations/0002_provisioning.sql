CREATE TABLE "provisioning" (
	"indicator_id" uuid NOT NULL,
	"region_code" text NOT NULL,
	"request_ref" uuid NOT NULL,
	"state" text NOT NULL,
	"provider" text,
	"last_error" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"requested_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "provisioning_indicator_id_region_code_pk" PRIMARY KEY("indicator_id","region_code"),
	CONSTRAINT "provisioning_failed_has_retry_at" CHECK ("provisioning"."state" <> 'failed' or "provisioning"."retry_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "source_refreshes" (
	"source" text PRIMARY KEY NOT NULL,
	"last_started_at" timestamp with time zone NOT NULL,
	"last_finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"changed_series" integer,
	"last_error" text,
	"last_success_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "provisioning" ADD CONSTRAINT "provisioning_indicator_id_indicators_id_fk" FOREIGN KEY ("indicator_id") REFERENCES "public"."indicators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provisioning" ADD CONSTRAINT "provisioning_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;