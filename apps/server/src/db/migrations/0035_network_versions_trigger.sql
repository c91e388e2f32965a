SELECT enable_tenant_rls('network_versions');
--> statement-breakpoint
-- Every statement that writes network rows moves its workspace's version, so the in-memory network
-- index (features/contacts/network-index.ts) can tell a current copy from a stale one with one read.
-- Statement-level: a recompute writing a million rows bumps it once per statement, not per row.
CREATE FUNCTION network_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ws uuid := nullif(current_setting('app.workspace_id', true), '')::uuid;
BEGIN
  IF ws IS NULL THEN
    -- A write outside any workspace (the owner's maintenance): every copy is to be rebuilt.
    UPDATE network_versions SET version = version + 1;
  ELSE
    -- Not for a workspace being deleted: its rows go with it, and so does its version.
    INSERT INTO network_versions AS v (workspace_id, version)
    SELECT ws, 1 WHERE EXISTS (SELECT 1 FROM workspaces WHERE id = ws)
    ON CONFLICT (workspace_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER network_rows_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON network_rows
  FOR EACH STATEMENT EXECUTE FUNCTION network_rows_changed();
