CREATE TABLE "usage_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"requests" bigint NOT NULL,
	"applied_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "overage_invoices" ADD COLUMN "kind" text DEFAULT 'final' NOT NULL;--> statement-breakpoint
ALTER TABLE "overage_invoices" ADD COLUMN "status" text DEFAULT 'invoiced' NOT NULL;--> statement-breakpoint
ALTER TABLE "overage_invoices" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "overage_invoices" ADD COLUMN "invoiced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "end_reason" text;--> statement-breakpoint
CREATE INDEX "usage_batches_applied_at_idx" ON "usage_batches" USING btree ("applied_at");