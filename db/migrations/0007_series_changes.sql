CREATE SEQUENCE "series_changes_seq";--> statement-breakpoint
CREATE TABLE "series_changes" (
	"indicator_id" uuid NOT NULL,
	"region_code" text NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "series_changes_indicator_id_region_code_pk" PRIMARY KEY("indicator_id","region_code")
);--> statement-breakpoint
CREATE INDEX "series_changes_seq_idx" ON "series_changes" USING btree ("seq");--> statement-breakpoint
-- Every write of a series, by whichever path or process, records it here in its own transaction (see
-- db/schema/series-changes.ts): a series row created, or its version moved. Statement-level triggers over transition
-- tables: one INSERT per writing statement, however many series it touches (a seed batch creates thousands).
CREATE FUNCTION "series_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "series_changes" ("indicator_id", "region_code", "seq")
	SELECT n."indicator_id", n."region_code", nextval('series_changes_seq') FROM "new_series" n
	ON CONFLICT ("indicator_id", "region_code") DO UPDATE SET "seq" = excluded."seq";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "series_version_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "series_changes" ("indicator_id", "region_code", "seq")
	SELECT n."indicator_id", n."region_code", nextval('series_changes_seq') FROM "new_series" n JOIN "old_series" o ON o."id" = n."id"
	WHERE o."version" IS DISTINCT FROM n."version"
	ON CONFLICT ("indicator_id", "region_code") DO UPDATE SET "seq" = excluded."seq";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "series_created" AFTER INSERT ON "series" REFERENCING NEW TABLE AS "new_series" FOR EACH STATEMENT EXECUTE FUNCTION "series_created"();--> statement-breakpoint
CREATE TRIGGER "series_version_moved" AFTER UPDATE ON "series" REFERENCING OLD TABLE AS "old_series" NEW TABLE AS "new_series" FOR EACH STATEMENT EXECUTE FUNCTION "series_version_moved"();--> statement-breakpoint
-- Series already held when this migration runs have never been through detection-on-write: queue them all once.
INSERT INTO "series_changes" ("indicator_id", "region_code", "seq") SELECT "indicator_id", "region_code", nextval('series_changes_seq') FROM "series";
