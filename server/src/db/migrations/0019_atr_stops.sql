ALTER TABLE "position_rules" ADD COLUMN "atr_period" integer;--> statement-breakpoint
ALTER TABLE "position_rules" ADD COLUMN "atr_value" numeric(18, 4);--> statement-breakpoint
ALTER TABLE "position_rules" ADD COLUMN "atr_as_of" date;