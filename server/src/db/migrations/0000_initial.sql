CREATE TABLE "alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"execution_id" uuid NOT NULL,
	"endpoint_id" uuid,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broker_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"broker_name" text NOT NULL,
	"broker_type" text NOT NULL,
	"account_label" text DEFAULT '' NOT NULL,
	"account_status" text DEFAULT 'ACTIVE' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holdings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"broker_account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"exchange" text NOT NULL,
	"isin" text,
	"quantity" numeric(18, 4) NOT NULL,
	"average_price" numeric(18, 4) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"isin" text,
	"series" text,
	"scrip_code" text,
	"yahoo_symbol" text NOT NULL,
	"kind" text DEFAULT 'EQUITY' NOT NULL,
	"source" text DEFAULT 'starter' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instruments_exchange_symbol_pk" PRIMARY KEY("exchange","symbol")
);
--> statement-breakpoint
CREATE TABLE "notification_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"value_key" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"verification_status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"name" text DEFAULT 'page_view' NOT NULL,
	"path" text NOT NULL,
	"referrer" text,
	"props" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "position_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"exchange" text NOT NULL,
	"rule_name" text NOT NULL,
	"rule_scope" text NOT NULL,
	"target_account_id" uuid,
	"action_type" text NOT NULL,
	"trigger_type" text NOT NULL,
	"trigger_value" numeric(18, 4) NOT NULL,
	"value_type" text NOT NULL,
	"reference_price" numeric(18, 4) NOT NULL,
	"peak_price" numeric(18, 4),
	"computed_trigger_price" numeric(18, 4) NOT NULL,
	"sell_quantity_type" text DEFAULT 'ALL_REMAINING' NOT NULL,
	"sell_quantity_value" numeric(18, 4),
	"order_type" text DEFAULT 'MARKET' NOT NULL,
	"limit_price" numeric(18, 4),
	"is_active" boolean DEFAULT true NOT NULL,
	"priority" integer DEFAULT 1 NOT NULL,
	"execution_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_triggered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"exchange" text NOT NULL,
	"direction" text NOT NULL,
	"price" numeric(18, 4) NOT NULL,
	"note" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"triggered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_bars" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"interval" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"open" numeric(18, 4) NOT NULL,
	"high" numeric(18, 4) NOT NULL,
	"low" numeric(18, 4) NOT NULL,
	"close" numeric(18, 4) NOT NULL,
	CONSTRAINT "price_bars_exchange_symbol_interval_bucket_pk" PRIMARY KEY("exchange","symbol","interval","bucket")
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"ltp" numeric(18, 4) NOT NULL,
	"prev_close" numeric(18, 4),
	"change" numeric(18, 4),
	"change_percent" numeric(18, 4),
	"as_of" timestamp with time zone NOT NULL,
	"stale" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_exchange_symbol_pk" PRIMARY KEY("exchange","symbol")
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"family_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"replaced_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "rule_executions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"rule_id" uuid,
	"price_alert_id" uuid,
	"symbol" text NOT NULL,
	"exchange" text NOT NULL,
	"trigger_type" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"execution_type" text DEFAULT 'ALERT' NOT NULL,
	"trigger_price" numeric(18, 4) NOT NULL,
	"execution_price" numeric(18, 4) NOT NULL,
	"account_id" uuid,
	"quantity_executed" numeric(18, 4),
	"broker_order_id" text,
	"error_message" text,
	"message" text,
	"over_quota" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"executed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "symbol_renames" (
	"exchange" text NOT NULL,
	"old_symbol" text NOT NULL,
	"new_symbol" text NOT NULL,
	"company_name" text,
	"changed_on" text,
	CONSTRAINT "symbol_renames_exchange_old_symbol_pk" PRIMARY KEY("exchange","old_symbol")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"google_sub" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"picture" text,
	"subscription_tier" text DEFAULT 'basic' NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "users_google_sub_unique" UNIQUE("google_sub")
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_execution_id_rule_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."rule_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_endpoint_id_notification_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."notification_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD CONSTRAINT "broker_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_broker_account_id_broker_accounts_id_fk" FOREIGN KEY ("broker_account_id") REFERENCES "public"."broker_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_endpoints" ADD CONSTRAINT "notification_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_events" ADD CONSTRAINT "page_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_rules" ADD CONSTRAINT "position_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_rules" ADD CONSTRAINT "position_rules_target_account_id_broker_accounts_id_fk" FOREIGN KEY ("target_account_id") REFERENCES "public"."broker_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_executions" ADD CONSTRAINT "rule_executions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_executions" ADD CONSTRAINT "rule_executions_rule_id_position_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."position_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_executions" ADD CONSTRAINT "rule_executions_price_alert_id_price_alerts_id_fk" FOREIGN KEY ("price_alert_id") REFERENCES "public"."price_alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_execution_endpoint_uq" ON "alert_deliveries" USING btree ("execution_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "broker_accounts_user_name_label_uq" ON "broker_accounts" USING btree ("user_id","broker_name","account_label");--> statement-breakpoint
CREATE UNIQUE INDEX "holdings_user_account_symbol_uq" ON "holdings" USING btree ("user_id","broker_account_id","symbol","exchange");--> statement-breakpoint
CREATE INDEX "holdings_instrument_idx" ON "holdings" USING btree ("exchange","symbol");--> statement-breakpoint
CREATE INDEX "instruments_isin_idx" ON "instruments" USING btree ("isin");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_endpoints_user_type_value_uq" ON "notification_endpoints" USING btree ("user_id","type","value_key");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_endpoints_token_uq" ON "notification_endpoints" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "page_events_time_idx" ON "page_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "position_rules_user_idx" ON "position_rules" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "position_rules_active_instrument_idx" ON "position_rules" USING btree ("exchange","symbol") WHERE "position_rules"."is_active";--> statement-breakpoint
CREATE INDEX "price_alerts_user_idx" ON "price_alerts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rule_executions_user_time_idx" ON "rule_executions" USING btree ("user_id","executed_at");