CREATE TABLE "ally_google_matches" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"share_id" uuid NOT NULL,
	"matches" jsonb NOT NULL,
	"scanned" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ally_google_matches_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "ally_google_matches" ADD CONSTRAINT "ally_google_matches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ally_google_matches" ADD CONSTRAINT "ally_google_matches_share_fk" FOREIGN KEY ("workspace_id","share_id") REFERENCES "public"."ally_shares"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT enable_tenant_rls('ally_google_matches');
