CREATE TABLE "flows" (
	"origin_code" text NOT NULL,
	"destination_code" text NOT NULL,
	"measure" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"dataset" text NOT NULL,
	"source" text NOT NULL,
	"value" double precision,
	"moe" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flows_origin_code_measure_dataset_period_start_destination_code_pk" PRIMARY KEY("origin_code","measure","dataset","period_start","destination_code")
);
--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_origin_code_regions_code_fk" FOREIGN KEY ("origin_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_destination_code_regions_code_fk" FOREIGN KEY ("destination_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flows_destination_idx" ON "flows" USING btree ("destination_code","measure","dataset","period_start");