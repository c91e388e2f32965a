CREATE TABLE "recommendation_log" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"run_on" date NOT NULL,
	"position" integer NOT NULL,
	"prospect_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"reason" text NOT NULL,
	"action_type" text,
	"connector_id" uuid,
	"action_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recommendation_log_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "recommended_on" date;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "generated_for_user_id" uuid;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "temperature" smallint;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "proximity" smallint;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "daily_actions_per_user" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "recommendations_ran_on" date;--> statement-breakpoint
ALTER TABLE "recommendation_log" ADD CONSTRAINT "recommendation_log_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recommendation_log_user_idx" ON "recommendation_log" USING btree ("workspace_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "recommendation_log_run_idx" ON "recommendation_log" USING btree ("workspace_id","run_id","position");--> statement-breakpoint
CREATE INDEX "actions_recommended_idx" ON "actions" USING btree ("workspace_id","recommended_on","status");--> statement-breakpoint
CREATE UNIQUE INDEX "actions_open_key" ON "actions" USING btree ("workspace_id","prospect_id","recommendation_users") WHERE status in ('recommended', 'pending');--> statement-breakpoint
CREATE INDEX "actions_awaiting_reply_idx" ON "actions" USING btree ("workspace_id","outbox_id") WHERE outbox_id is not null and replied_at is null;