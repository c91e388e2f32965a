CREATE TABLE "ally_connections" (
	"workspace_id" uuid NOT NULL,
	"share_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"company" text,
	"position" text,
	"created_person" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ally_connections_workspace_id_share_id_person_id_pk" PRIMARY KEY("workspace_id","share_id","person_id")
);
--> statement-breakpoint
CREATE TABLE "ally_shares" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"sent_by_user_id" uuid,
	"sent_to" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "ally_shares_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "ally_connections" ADD CONSTRAINT "ally_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ally_shares" ADD CONSTRAINT "ally_shares_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ally_connections_person_idx" ON "ally_connections" USING btree ("workspace_id","person_id");--> statement-breakpoint
CREATE INDEX "ally_connections_client_idx" ON "ally_connections" USING btree ("workspace_id","client_id");--> statement-breakpoint
CREATE INDEX "ally_shares_client_idx" ON "ally_shares" USING btree ("workspace_id","client_id");--> statement-breakpoint
SELECT enable_tenant_rls('ally_shares');
--> statement-breakpoint
SELECT enable_tenant_rls('ally_connections');
