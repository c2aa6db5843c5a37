CREATE TABLE "indicators" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"source_slug" text,
	"name" text NOT NULL,
	"description" text,
	"category" text,
	"subcategory" text,
	"access_tier" text DEFAULT 'free' NOT NULL,
	"unit" text,
	"frequency" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"region_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"default_region_code" text,
	"up_is_good" boolean,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "observations" (
	"series_id" integer NOT NULL,
	"date" date NOT NULL,
	"revision" integer NOT NULL,
	"value" double precision,
	"is_preliminary" boolean DEFAULT false NOT NULL,
	"is_latest" boolean DEFAULT true NOT NULL,
	"source_updated_at" timestamp with time zone,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "observations_series_id_date_revision_pk" PRIMARY KEY("series_id","date","revision")
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"code" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"parent_code" text,
	"fips_state" text,
	"fips_county" text,
	"aliases" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "regions_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" serial PRIMARY KEY NOT NULL,
	"indicator_id" uuid NOT NULL,
	"region_code" text NOT NULL,
	"first_date" date,
	"last_date" date,
	"observation_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"provider" text,
	"category" text,
	"docs_url" text,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "indicators" ADD CONSTRAINT "indicators_source_slug_sources_slug_fk" FOREIGN KEY ("source_slug") REFERENCES "public"."sources"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observations" ADD CONSTRAINT "observations_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_indicator_id_indicators_id_fk" FOREIGN KEY ("indicator_id") REFERENCES "public"."indicators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "indicators_code_source_idx" ON "indicators" USING btree ("code","source_slug");--> statement-breakpoint
CREATE INDEX "indicators_category_idx" ON "indicators" USING btree ("category");--> statement-breakpoint
CREATE UNIQUE INDEX "observations_latest_idx" ON "observations" USING btree ("series_id","date") WHERE is_latest;--> statement-breakpoint
CREATE INDEX "regions_type_idx" ON "regions" USING btree ("type");--> statement-breakpoint
CREATE INDEX "regions_parent_idx" ON "regions" USING btree ("parent_code");--> statement-breakpoint
CREATE UNIQUE INDEX "series_indicator_region_idx" ON "series" USING btree ("indicator_id","region_code");--> statement-breakpoint
CREATE INDEX "series_region_idx" ON "series" USING btree ("region_code");