CREATE TABLE "own_network_rows" (
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
	"user_id" uuid NOT NULL,
	CONSTRAINT "own_network_rows_workspace_id_user_id_prospect_id_pk" PRIMARY KEY("workspace_id","user_id","prospect_id")
);
--> statement-breakpoint
ALTER TABLE "own_network_rows" ADD CONSTRAINT "own_network_rows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "own_network_rows" ADD CONSTRAINT "own_network_rows_workspace_id_user_id_users_workspace_id_id_fk" FOREIGN KEY ("workspace_id","user_id") REFERENCES "public"."users"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "own_network_rows_order_idx" ON "own_network_rows" USING btree ("workspace_id","user_id","proximity" DESC NULLS LAST,"prospect_id");--> statement-breakpoint
SELECT enable_tenant_rls('own_network_rows');
