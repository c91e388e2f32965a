CREATE TABLE "network_growth" (
	"workspace_id" uuid NOT NULL,
	"prospects_before" integer NOT NULL,
	"companies_before" integer NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "network_growth_workspace_id_pk" PRIMARY KEY("workspace_id")
);
--> statement-breakpoint
ALTER TABLE "network_growth" ADD CONSTRAINT "network_growth_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;