CREATE TABLE "network_facets" (
	"workspace_id" uuid NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"rows" integer NOT NULL,
	CONSTRAINT "network_facets_workspace_id_field_value_pk" PRIMARY KEY("workspace_id","field","value")
);
--> statement-breakpoint
ALTER TABLE "network_facets" ADD CONSTRAINT "network_facets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_reach_top_idx" ON "network_reach" USING btree ("workspace_id","kind","rows" DESC NULLS LAST,"key");