ALTER TABLE "quotes" ADD COLUMN "delay_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "unavailable" boolean DEFAULT false NOT NULL;