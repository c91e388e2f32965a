CREATE TABLE "network_cube" (
	"workspace_id" uuid NOT NULL,
	"company_size" text,
	"industry" text,
	"department" text,
	"proximity" smallint NOT NULL,
	"engagement" smallint NOT NULL,
	"signal_mask" integer NOT NULL,
	"has_external_connector" boolean NOT NULL,
	"rows" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_reach" (
	"workspace_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" uuid NOT NULL,
	"rows" integer NOT NULL,
	CONSTRAINT "network_reach_workspace_id_kind_key_pk" PRIMARY KEY("workspace_id","kind","key")
);
--> statement-breakpoint
ALTER TABLE "network_cube" ADD CONSTRAINT "network_cube_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_reach" ADD CONSTRAINT "network_reach_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_cube_workspace_idx" ON "network_cube" USING btree ("workspace_id");