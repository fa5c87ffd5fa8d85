ALTER TABLE "corporate_actions" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "corporate_actions" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "corporate_actions" ADD COLUMN "last_failure" text;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "lot_set_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "position_rules" ADD COLUMN "levels_set_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "price_alerts" ADD COLUMN "price_set_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Existing rows take updated_at: every create, edit, enable, re-arm and adjustment moves it
-- (a trailing peak's rise alone does not), so it is not before the numbers were last set, and a
-- row touched after an ex-date's open is left as it is rather than divided twice. created_at
-- would divide again a level edited after the open, the very thing these columns prevent.
UPDATE "holdings" SET "lot_set_at" = "updated_at";--> statement-breakpoint
UPDATE "position_rules" SET "levels_set_at" = "updated_at";--> statement-breakpoint
UPDATE "price_alerts" SET "price_set_at" = "updated_at";
