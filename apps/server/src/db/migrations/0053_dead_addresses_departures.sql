CREATE TABLE "dead_addresses" (
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"bounced_at" timestamp with time zone NOT NULL,
	"source_user_id" uuid NOT NULL,
	"evidence" jsonb NOT NULL,
	CONSTRAINT "dead_addresses_workspace_id_email_pk" PRIMARY KEY("workspace_id","email")
);
--> statement-breakpoint
ALTER TABLE "job_changes" ALTER COLUMN "new_company_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "job_changes" ADD COLUMN "kind" text DEFAULT 'moved' NOT NULL;--> statement-breakpoint
ALTER TABLE "dead_addresses" ADD CONSTRAINT "dead_addresses_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_changes_one_departure_key" ON "job_changes" USING btree ("workspace_id","person_id") WHERE kind = 'left';--> statement-breakpoint
ALTER TABLE "job_changes" ADD CONSTRAINT "job_changes_destination_check" CHECK (kind = 'left' or new_company_name is not null);--> statement-breakpoint
SELECT enable_tenant_rls('dead_addresses');
