CREATE TABLE "broker_login_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"broker_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "broker_id" text;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "token_ciphertext" text;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "last_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "sync_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "broker_login_states" ADD CONSTRAINT "broker_login_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;