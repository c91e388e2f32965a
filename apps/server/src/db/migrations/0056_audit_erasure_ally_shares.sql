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
CREATE TABLE "audit_log" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"actor_user_id" uuid,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"subject" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_log_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "erased_people" (
	"workspace_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erased_people_workspace_id_key_hash_pk" PRIMARY KEY("workspace_id","key_hash")
);
--> statement-breakpoint
ALTER TABLE "ally_connections" ADD CONSTRAINT "ally_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ally_shares" ADD CONSTRAINT "ally_shares_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erased_people" ADD CONSTRAINT "erased_people_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ally_connections_person_idx" ON "ally_connections" USING btree ("workspace_id","person_id");--> statement-breakpoint
CREATE INDEX "ally_connections_client_idx" ON "ally_connections" USING btree ("workspace_id","client_id");--> statement-breakpoint
CREATE INDEX "ally_shares_client_idx" ON "ally_shares" USING btree ("workspace_id","client_id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("workspace_id","at","id");--> statement-breakpoint
SELECT enable_tenant_rls('audit_log');
--> statement-breakpoint
SELECT enable_tenant_rls('erased_people');
--> statement-breakpoint
-- Append-only for the application: it records and reads, and can neither rewrite nor remove an entry.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM warmpath_app;
--> statement-breakpoint
-- The one way out of the log: entries older than a year, of the workspace the caller's transaction
-- is in (the function runs as the table's owner, and forced row-level security still applies to it).
CREATE OR REPLACE FUNCTION purge_audit_log() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE purged integer;
BEGIN
  DELETE FROM audit_log WHERE at < now() - interval '1 year';
  GET DIAGNOSTICS purged = ROW_COUNT;
  RETURN purged;
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_audit_log() FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION purge_audit_log() TO warmpath_app;
--> statement-breakpoint
SELECT enable_tenant_rls('ally_shares');
--> statement-breakpoint
SELECT enable_tenant_rls('ally_connections');
