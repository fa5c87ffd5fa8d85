ALTER TABLE "position_rules" ADD COLUMN "rearm" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "position_rules" ADD COLUMN "rearm_percent" numeric(18, 4) DEFAULT '3' NOT NULL;--> statement-breakpoint
ALTER TABLE "position_rules" ADD COLUMN "rearm_at" numeric(18, 4);