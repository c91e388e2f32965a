-- The network table's order index carries the filter columns too (INCLUDE, not keys: the order stays
-- proximity then id). A filtered page is then read from the index alone: at 1M prospects a deep page
-- under an engagement or signal filter went from a heap visit per skipped row to index pages only.
DROP INDEX IF EXISTS "network_rows_order_idx";--> statement-breakpoint
CREATE INDEX "network_rows_order_idx" ON "network_rows" USING btree ("workspace_id", "proximity" DESC NULLS LAST, "prospect_id")
  INCLUDE ("engagement", "signal_mask", "has_external_connector", "company_size", "industry", "department", "country", "company_type", "seniority", "company_id");
