CREATE TABLE "ally_trust" (
	"workspace_id" uuid NOT NULL,
	"ally_id" uuid NOT NULL,
	"trust" double precision NOT NULL,
	CONSTRAINT "ally_trust_workspace_id_ally_id_pk" PRIMARY KEY("workspace_id","ally_id")
);
--> statement-breakpoint
ALTER TABLE "ally_trust" ADD CONSTRAINT "ally_trust_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT enable_tenant_rls('ally_trust');--> statement-breakpoint
-- Existing workspaces with clients: one of them is marked for the recompute, whose next roll-up writes
-- every ally's trust (a roll-up computes it for all allies, whatever its scope).
INSERT INTO "graph_dirty" ("workspace_id", "person_id")
SELECT DISTINCT ON ("workspace_id") "workspace_id", "person_id" FROM "clients" ON CONFLICT DO NOTHING;
