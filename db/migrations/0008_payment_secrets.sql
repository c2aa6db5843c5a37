CREATE TABLE "payment_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"fingerprint" text NOT NULL,
	"value" text,
	"recorded_at" timestamp with time zone NOT NULL
);
