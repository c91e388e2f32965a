-- The application's role: it owns nothing, so forced row-level security always applies to it.
-- The server connects as the database owner and switches to this role on every pooled connection.
DO $$ BEGIN
  CREATE ROLE warmpath_app NOLOGIN NOBYPASSRLS;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
GRANT warmpath_app TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO warmpath_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO warmpath_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO warmpath_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO warmpath_app;
--> statement-breakpoint
-- One place for the tenant rule; every tenant table of every later migration calls it.
CREATE OR REPLACE FUNCTION enable_tenant_rls(tbl regclass, key_column text DEFAULT 'workspace_id') RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s USING (%I = nullif(current_setting(''app.workspace_id'', true), '''')::uuid) '
    'WITH CHECK (%I = nullif(current_setting(''app.workspace_id'', true), '''')::uuid)',
    tbl, key_column, key_column);
END
$fn$;
--> statement-breakpoint
SELECT enable_tenant_rls('workspaces', 'id');
--> statement-breakpoint
SELECT enable_tenant_rls('users');
--> statement-breakpoint
SELECT enable_tenant_rls('integrations');
