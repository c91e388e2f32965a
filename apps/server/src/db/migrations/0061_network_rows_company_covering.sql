-- The account coverage view (issue 26) counts each target company's rows, its warm ones and whether
-- any has a path, then ranks a company's rows closest first; the report cards' trends read when each
-- row was first seen: all from this index alone, with the connectors and first_seen_at INCLUDEd
-- (drizzle cannot say it). The companies filter reads it as before.
DROP INDEX "network_rows_company_idx";--> statement-breakpoint
CREATE INDEX "network_rows_company_idx" ON "network_rows" USING btree ("workspace_id","company_id","proximity" DESC NULLS LAST)
  INCLUDE ("connector_ids", "first_seen_at");
