CREATE TABLE "crm_list_companies" (
	"workspace_id" uuid NOT NULL,
	"list_id" text NOT NULL,
	"hubspot_id" text NOT NULL,
	"company_id" uuid,
	"name" text NOT NULL,
	"domain" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crm_list_companies_workspace_id_list_id_hubspot_id_pk" PRIMARY KEY("workspace_id","list_id","hubspot_id")
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "hubspot_customer_lists" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "hubspot_exclusion_lists" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "crm_list_companies" ADD CONSTRAINT "crm_list_companies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_list_companies_company_idx" ON "crm_list_companies" USING btree ("workspace_id","company_id");--> statement-breakpoint
SELECT enable_tenant_rls('crm_list_companies');
