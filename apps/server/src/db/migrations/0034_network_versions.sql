CREATE TABLE "network_versions" (
	"workspace_id" uuid NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "network_versions_workspace_id_pk" PRIMARY KEY("workspace_id")
);
--> statement-breakpoint
ALTER TABLE "network_versions" ADD CONSTRAINT "network_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;