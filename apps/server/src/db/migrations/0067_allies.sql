-- The trust table becomes the allies' table (each ally's trust, and since when the team has them), and
-- the report cards' stored trends get the connectors' one.
DROP TABLE "ally_trust" CASCADE;--> statement-breakpoint
CREATE TABLE "allies" (
	"workspace_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"trust" double precision NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "allies_workspace_id_person_id_pk" PRIMARY KEY("workspace_id","person_id")
);
--> statement-breakpoint
ALTER TABLE "allies" ADD CONSTRAINT "allies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT enable_tenant_rls('allies');--> statement-breakpoint
-- Existing workspaces with clients: one of them is marked for the recompute, whose next roll-up writes
-- every ally (a roll-up computes them all, whatever its scope).
INSERT INTO "graph_dirty" ("workspace_id", "person_id")
SELECT DISTINCT ON ("workspace_id") "workspace_id", "person_id" FROM "clients" ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The stored trends are a cache: emptied, they are read again (with the connectors') at the next view.
DELETE FROM "network_growth";--> statement-breakpoint
ALTER TABLE "network_growth" ADD COLUMN "connectors_trend" integer[] NOT NULL;
