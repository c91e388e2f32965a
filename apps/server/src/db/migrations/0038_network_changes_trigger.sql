SELECT enable_tenant_rls('network_changes');
--> statement-breakpoint
-- Nothing logged before this migration: a copy from before it is rebuilt, never patched.
UPDATE network_versions SET unlogged_until = version;
--> statement-breakpoint
DROP TRIGGER network_rows_changed ON network_rows;
--> statement-breakpoint
DROP FUNCTION network_rows_changed();
--> statement-breakpoint
-- Every statement that writes network rows moves its workspace's version (so the in-memory copy of
-- features/contacts/network-index.ts can tell a current copy from a stale one with one read) and logs
-- the prospects it wrote or removed under that version (so a stale copy re-reads those rows only).
-- A statement that changed nothing moves nothing. One that changed more than 25,000 rows is not
-- logged: it marks its version unlogged, and copies older than that are rebuilt. The log keeps the
-- last 256 versions; older ones count as unlogged too.
CREATE FUNCTION network_rows_logged() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ws uuid := nullif(current_setting('app.workspace_id', true), '')::uuid;
  changed bigint;
  logged boolean;
  next_version bigint;
BEGIN
  IF ws IS NULL THEN
    -- A write outside any workspace (the owner's maintenance): every copy is to be rebuilt.
    UPDATE network_versions SET version = version + 1, unlogged_until = version + 1;
    RETURN NULL;
  END IF;
  -- Not for a workspace being deleted: its rows go with it, and so does its version.
  IF NOT EXISTS (SELECT 1 FROM workspaces WHERE id = ws) THEN
    RETURN NULL;
  END IF;
  -- Each trigger below names only its own transition table, and a branch is planned only when it runs.
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO changed FROM old_rows;
  ELSE
    SELECT count(*) INTO changed FROM new_rows;
  END IF;
  IF changed = 0 THEN
    RETURN NULL;
  END IF;
  logged := changed <= 25000;
  INSERT INTO network_versions AS v (workspace_id, version, unlogged_until)
  VALUES (ws, 1, CASE WHEN logged THEN 0 ELSE 1 END)
  ON CONFLICT (workspace_id) DO UPDATE
    SET version = v.version + 1,
        unlogged_until = CASE WHEN logged THEN greatest(v.unlogged_until, v.version + 1 - 256) ELSE v.version + 1 END
  RETURNING version INTO next_version;
  IF logged THEN
    IF TG_OP = 'DELETE' THEN
      INSERT INTO network_changes (workspace_id, version, prospect_id) SELECT ws, next_version, prospect_id FROM old_rows;
    ELSE
      INSERT INTO network_changes (workspace_id, version, prospect_id) SELECT ws, next_version, prospect_id FROM new_rows;
    END IF;
  END IF;
  DELETE FROM network_changes WHERE workspace_id = ws AND version <= next_version - 256;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update never moves a prospect_id (it is the row's key): its new rows name every prospect it touched.
CREATE TRIGGER network_rows_inserted AFTER INSERT ON network_rows
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION network_rows_logged();
--> statement-breakpoint
CREATE TRIGGER network_rows_updated AFTER UPDATE ON network_rows
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION network_rows_logged();
--> statement-breakpoint
CREATE TRIGGER network_rows_deleted AFTER DELETE ON network_rows
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION network_rows_logged();
--> statement-breakpoint
-- A truncation has no transition table: it moves the version of every workspace, unlogged.
CREATE FUNCTION network_rows_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE network_versions SET version = version + 1, unlogged_until = version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER network_rows_truncated AFTER TRUNCATE ON network_rows
  FOR EACH STATEMENT EXECUTE FUNCTION network_rows_truncated();
