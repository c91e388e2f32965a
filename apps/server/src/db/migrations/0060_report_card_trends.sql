-- network_growth is a cache (rebuilt within the hour): emptied, so its new columns need no default.
DELETE FROM "network_growth";--> statement-breakpoint
DROP INDEX "network_rows_company_idx";--> statement-breakpoint
ALTER TABLE "network_growth" ADD COLUMN "prospects_trend" integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "network_growth" ADD COLUMN "companies_trend" integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "network_growth" DROP COLUMN "prospects_before";--> statement-breakpoint
ALTER TABLE "network_growth" DROP COLUMN "companies_before";--> statement-breakpoint
CREATE INDEX "network_rows_company_idx" ON "network_rows" USING btree ("workspace_id","company_id","first_seen_at");
