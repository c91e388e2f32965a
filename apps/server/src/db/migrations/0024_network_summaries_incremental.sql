CREATE TABLE "network_rank" (
	"workspace_id" uuid NOT NULL,
	"proximity" smallint NOT NULL,
	"bucket" smallint NOT NULL,
	"rows" integer NOT NULL,
	CONSTRAINT "network_rank_workspace_id_proximity_bucket_pk" PRIMARY KEY("workspace_id","proximity","bucket")
);
--> statement-breakpoint
DROP INDEX "network_cube_workspace_idx";--> statement-breakpoint
ALTER TABLE "network_rank" ADD CONSTRAINT "network_rank_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_cube" ADD CONSTRAINT "network_cube_cell_key" UNIQUE NULLS NOT DISTINCT("workspace_id","company_size","industry","department","proximity","engagement","signal_mask","has_external_connector");