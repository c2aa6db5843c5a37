CREATE TABLE "seed_snapshots" (
	"name" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"rows" integer NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "attribution" text;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "license" text;