CREATE TABLE "account_assignees" (
	"workspace_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "account_assignees_workspace_id_account_id_user_id_pk" PRIMARY KEY("workspace_id","account_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"last_activity_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "accounts_workspace_company_key" UNIQUE("workspace_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"person_id" uuid NOT NULL,
	"tag" text,
	"contact_owner_user_id" uuid,
	"source" text NOT NULL,
	"map_network" boolean DEFAULT false NOT NULL,
	"track_job_changes" boolean DEFAULT false NOT NULL,
	"company_id_at_import" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "clients_workspace_person_key" UNIQUE("workspace_id","person_id")
);
--> statement-breakpoint
CREATE TABLE "edges" (
	"workspace_id" uuid NOT NULL,
	"prospect_id" uuid NOT NULL,
	"connector_id" uuid NOT NULL,
	"meeting_weight" real DEFAULT 0 NOT NULL,
	"meetings" integer DEFAULT 0 NOT NULL,
	"mails_sent" integer DEFAULT 0 NOT NULL,
	"mails_received" integer DEFAULT 0 NOT NULL,
	"mail_sent_weight" real DEFAULT 0 NOT NULL,
	"mail_received_weight" real DEFAULT 0 NOT NULL,
	"shared_months" integer DEFAULT 0 NOT NULL,
	"shared_same_department" boolean DEFAULT false NOT NULL,
	"shared_ended_on" date,
	"shared_company_id" uuid,
	"linkedin" boolean DEFAULT false NOT NULL,
	"last_interaction_at" timestamp with time zone,
	"evidence_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "edges_workspace_id_prospect_id_connector_id_pk" PRIMARY KEY("workspace_id","prospect_id","connector_id")
);
--> statement-breakpoint
CREATE TABLE "employments" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"person_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"title" text,
	"department" text,
	"started_on" date NOT NULL,
	"ended_on" date,
	CONSTRAINT "employments_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "graph_dirty" (
	"workspace_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "graph_dirty_workspace_id_person_id_pk" PRIMARY KEY("workspace_id","person_id")
);
--> statement-breakpoint
CREATE TABLE "network_rows" (
	"workspace_id" uuid NOT NULL,
	"prospect_id" uuid NOT NULL,
	"full_name" text NOT NULL,
	"company_id" uuid,
	"company_size" text,
	"industry" text,
	"country" text,
	"company_type" text,
	"department" text,
	"seniority" text,
	"job_title" text,
	"proximity" smallint NOT NULL,
	"engagement" smallint NOT NULL,
	"connector_ids" uuid[] NOT NULL,
	"has_external_connector" boolean NOT NULL,
	"signal_mask" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "network_rows_workspace_id_prospect_id_pk" PRIMARY KEY("workspace_id","prospect_id")
);
--> statement-breakpoint
CREATE TABLE "website_events" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"person_id" uuid,
	"company_id" uuid,
	"path" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "website_events_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "technologies" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "seniority" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "graph_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "account_assignees" ADD CONSTRAINT "account_assignees_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edges" ADD CONSTRAINT "edges_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employments" ADD CONSTRAINT "employments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_dirty" ADD CONSTRAINT "graph_dirty_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_rows" ADD CONSTRAINT "network_rows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_events" ADD CONSTRAINT "website_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_assignees_user_idx" ON "account_assignees" USING btree ("workspace_id","user_id");--> statement-breakpoint
CREATE INDEX "edges_connector_idx" ON "edges" USING btree ("workspace_id","connector_id");--> statement-breakpoint
CREATE INDEX "employments_person_idx" ON "employments" USING btree ("workspace_id","person_id");--> statement-breakpoint
CREATE INDEX "employments_company_idx" ON "employments" USING btree ("workspace_id","company_id");--> statement-breakpoint
CREATE INDEX "network_rows_order_idx" ON "network_rows" USING btree ("workspace_id","proximity" DESC NULLS LAST,"prospect_id");--> statement-breakpoint
CREATE INDEX "network_rows_company_idx" ON "network_rows" USING btree ("workspace_id","company_id");--> statement-breakpoint
CREATE INDEX "network_rows_connectors_idx" ON "network_rows" USING gin ("connector_ids");--> statement-breakpoint
CREATE INDEX "network_rows_name_idx" ON "network_rows" USING btree ("workspace_id","full_name");--> statement-breakpoint
CREATE INDEX "website_events_person_idx" ON "website_events" USING btree ("workspace_id","person_id");--> statement-breakpoint
CREATE INDEX "website_events_company_idx" ON "website_events" USING btree ("workspace_id","company_id");