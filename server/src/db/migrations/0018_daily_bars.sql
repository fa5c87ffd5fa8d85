CREATE TABLE "daily_bars" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"open" numeric(18, 4) NOT NULL,
	"high" numeric(18, 4) NOT NULL,
	"low" numeric(18, 4) NOT NULL,
	"close" numeric(18, 4) NOT NULL,
	"volume" bigint NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_bars_exchange_symbol_date_pk" PRIMARY KEY("exchange","symbol","date")
);
