CREATE TABLE "network_changes" (
	"workspace_id" uuid NOT NULL,
	"version" bigint NOT NULL,
	"prospect_id" uuid NOT NULL
);
--> statement-breakpoint
DROP INDEX "network_rows_name_idx";--> statement-breakpoint
ALTER TABLE "network_versions" ADD COLUMN "unlogged_until" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_changes" ADD CONSTRAINT "network_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_changes_version_idx" ON "network_changes" USING btree ("workspace_id","version");--> statement-breakpoint
CREATE INDEX "network_rows_name_idx" ON "network_rows" USING btree ("workspace_id","full_name","prospect_id");