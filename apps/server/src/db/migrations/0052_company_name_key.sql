ALTER TABLE "companies" ADD COLUMN "name_key" text GENERATED ALWAYS AS (company_key(name)) STORED;--> statement-breakpoint
CREATE INDEX "companies_workspace_name_key_idx" ON "companies" USING btree ("workspace_id","name_key");--> statement-breakpoint
-- Under row-level security an index on company_key(name) only ever served its workspace_id prefix (the
-- function is not leakproof, so the policy comes first): lookups by name go through name_key now.
DROP INDEX "companies_name_key_idx";
