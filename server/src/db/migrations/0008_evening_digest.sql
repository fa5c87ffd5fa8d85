CREATE TABLE "digests" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"execution_id" uuid,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digests_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "evening_digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "digests" ADD CONSTRAINT "digests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digests" ADD CONSTRAINT "digests_execution_id_rule_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."rule_executions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digests_execution_idx" ON "digests" USING btree ("execution_id");