ALTER TABLE "alert_deliveries" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "fallback_of" uuid;--> statement-breakpoint
ALTER TABLE "notification_endpoints" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "notification_endpoints" ADD COLUMN "meta" jsonb;--> statement-breakpoint
ALTER TABLE "notification_endpoints" ADD COLUMN "notices" text[] DEFAULT '{alert,digest,corporate_action}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_endpoints" ADD COLUMN "inactive_reason" text;--> statement-breakpoint
CREATE INDEX "alert_deliveries_provider_message_idx" ON "alert_deliveries" USING btree ("provider_message_id") WHERE provider_message_id is not null;