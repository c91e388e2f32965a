CREATE TABLE "crm_clients" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"company_name" text NOT NULL,
	"company_domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crm_clients_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "crm_clients_workspace_domain_key" UNIQUE("workspace_id","company_domain")
);
--> statement-breakpoint
CREATE TABLE "import_rejections" (
	"workspace_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"line" bigint NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "import_rejections_workspace_id_import_id_line_pk" PRIMARY KEY("workspace_id","import_id","line")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"workspace_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text NOT NULL,
	"map_network" boolean DEFAULT false NOT NULL,
	"track_job_changes" boolean DEFAULT false NOT NULL,
	"bytes_received" bigint DEFAULT 0 NOT NULL,
	"rows_processed" bigint DEFAULT 0 NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "imports_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "first_name" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "last_name" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "contact_owner_email" text;--> statement-breakpoint
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rejections" ADD CONSTRAINT "import_rejections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clients_map_network_idx" ON "clients" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id") WHERE map_network;--> statement-breakpoint
CREATE INDEX "clients_track_job_changes_idx" ON "clients" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id") WHERE track_job_changes;