CREATE TABLE "workflow_runs" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"workflow_id" uuid NOT NULL,
	"prospect_id" uuid NOT NULL,
	"signal_type" text NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"pushes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "workflow_runs_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"signals" text[] NOT NULL,
	"filters" jsonb NOT NULL,
	"engagements" text[] NOT NULL,
	"profile_user_id" uuid,
	"template" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflows_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD CONSTRAINT "workflow_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_runs_once_key" ON "workflow_runs" USING btree ("workspace_id","workflow_id","prospect_id","signal_type");--> statement-breakpoint
CREATE INDEX "workflow_runs_latest_idx" ON "workflow_runs" USING btree ("workspace_id","workflow_id","fired_at" DESC NULLS LAST);