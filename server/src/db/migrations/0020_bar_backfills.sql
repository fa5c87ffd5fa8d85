CREATE TABLE "bar_backfills" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"source" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone,
	"bars" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bar_backfills_exchange_symbol_source_pk" PRIMARY KEY("exchange","symbol","source")
);
