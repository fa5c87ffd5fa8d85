CREATE TABLE "maintenance_runs" (
	"job" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
