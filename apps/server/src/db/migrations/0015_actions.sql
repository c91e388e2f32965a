CREATE TABLE "actions" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"origin" text NOT NULL,
	"prospect_id" uuid NOT NULL,
	"connector_id" uuid,
	"owner_user_id" uuid,
	"recommendation_users" uuid[] DEFAULT '{}' NOT NULL,
	"signals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"intro_target_message" text,
	"outbox_id" uuid,
	"acted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "actions_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "actions_status_idx" ON "actions" USING btree ("workspace_id","status","acted_at");--> statement-breakpoint
CREATE INDEX "actions_prospect_idx" ON "actions" USING btree ("workspace_id","prospect_id");--> statement-breakpoint
CREATE INDEX "actions_connector_idx" ON "actions" USING btree ("workspace_id","connector_id","acted_at");