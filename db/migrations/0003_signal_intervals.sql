CREATE TABLE "signal_intervals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"indicator_id" uuid NOT NULL,
	"region_code" text NOT NULL,
	"type" text NOT NULL,
	"direction" text,
	"strength" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	"detected_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"evidence" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signal_intervals" ADD CONSTRAINT "signal_intervals_indicator_id_indicators_id_fk" FOREIGN KEY ("indicator_id") REFERENCES "public"."indicators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signal_intervals" ADD CONSTRAINT "signal_intervals_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signal_intervals_series_type_from_idx" ON "signal_intervals" USING btree ("indicator_id","region_code","type","valid_from");--> statement-breakpoint
CREATE INDEX "signal_intervals_from_id_idx" ON "signal_intervals" USING btree ("valid_from","id");--> statement-breakpoint
CREATE INDEX "signal_intervals_open_idx" ON "signal_intervals" USING btree ("valid_from","id") WHERE valid_to is null;