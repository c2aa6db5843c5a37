CREATE SEQUENCE "series_changes_seq";--> statement-breakpoint
CREATE TABLE "series_changes" (
	"indicator_id" uuid NOT NULL,
	"region_code" text NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "series_changes_indicator_id_region_code_pk" PRIMARY KEY("indicator_id","region_code")
);--> statement-breakpoint
CREATE INDEX "series_changes_seq_idx" ON "series_changes" USING btree ("seq");--> statement-breakpoint
-- Every write of a series, by whichever path or process, records it here in its own transaction (see
-- db/schema/series-changes.ts): a series row created, or its version moved.
CREATE FUNCTION "series_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "series_changes" ("indicator_id", "region_code", "seq")
	VALUES (NEW."indicator_id", NEW."region_code", nextval('series_changes_seq'))
	ON CONFLICT ("indicator_id", "region_code") DO UPDATE SET "seq" = excluded."seq";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "series_created" AFTER INSERT ON "series" FOR EACH ROW EXECUTE FUNCTION "series_changed"();--> statement-breakpoint
CREATE TRIGGER "series_version_moved" AFTER UPDATE OF "version" ON "series" FOR EACH ROW WHEN (OLD."version" IS DISTINCT FROM NEW."version") EXECUTE FUNCTION "series_changed"();--> statement-breakpoint
-- Series already held when this migration runs have never been through detection-on-write: queue them all once.
INSERT INTO "series_changes" ("indicator_id", "region_code", "seq") SELECT "indicator_id", "region_code", nextval('series_changes_seq') FROM "series";
