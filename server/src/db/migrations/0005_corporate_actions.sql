CREATE TABLE "corporate_action_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"target" text NOT NULL,
	"target_id" uuid NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "corporate_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"security" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"ratio" numeric(18, 8),
	"purpose" text NOT NULL,
	"ex_date" date NOT NULL,
	"record_date" date,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"adjusted_rules" integer,
	"adjusted_alerts" integer,
	"adjusted_holdings" integer,
	"notified_users" integer
);
--> statement-breakpoint
ALTER TABLE "corporate_action_adjustments" ADD CONSTRAINT "corporate_action_adjustments_action_id_corporate_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."corporate_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corporate_action_adjustments" ADD CONSTRAINT "corporate_action_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "corporate_action_adjustments_target_uq" ON "corporate_action_adjustments" USING btree ("action_id","target","target_id");--> statement-breakpoint
CREATE INDEX "corporate_action_adjustments_target_idx" ON "corporate_action_adjustments" USING btree ("target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "corporate_actions_instrument_date_kind_uq" ON "corporate_actions" USING btree ("exchange","symbol","ex_date","kind");--> statement-breakpoint
CREATE INDEX "corporate_actions_due_idx" ON "corporate_actions" USING btree ("ex_date") WHERE "corporate_actions"."applied_at" is null and "corporate_actions"."ratio" is not null;