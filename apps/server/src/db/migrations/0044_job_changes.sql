CREATE TABLE "job_changes" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"person_id" uuid NOT NULL,
	"past_company_id" uuid,
	"past_company_name" text,
	"new_company_id" uuid,
	"new_company_name" text NOT NULL,
	"changed_on" date NOT NULL,
	"source" text NOT NULL,
	"confidence" text NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_changes_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "job_changes_once_key" UNIQUE("workspace_id","person_id","changed_on","new_company_name")
);
--> statement-breakpoint
ALTER TABLE "employments" ALTER COLUMN "started_on" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "domain" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "employments" ADD COLUMN "source" text DEFAULT 'import' NOT NULL;--> statement-breakpoint
ALTER TABLE "employments" ADD COLUMN "seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "job_changes" ADD CONSTRAINT "job_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_changes_recent_idx" ON "job_changes" USING btree ("workspace_id","changed_on" DESC NULLS LAST);