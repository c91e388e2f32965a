ALTER TABLE "network_versions" ADD COLUMN "requested_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every version so far counts as requested: no copy answers past one until it is patched.
UPDATE network_versions SET requested_version = version;
--> statement-breakpoint
-- As in 0038, and each version now also says whether the graph job made it: a transaction that sets
-- `app.network_writer` to 'job' (the graph job's batches) leaves requested_version where it was, so an
-- in-memory copy behind only by such versions may answer while it is patched (its member would not
-- know the job's last batch from the one before); any other write (a member's request, an erasure,
-- a new ally) moves it, and copies behind it stop answering until they are patched.
CREATE OR REPLACE FUNCTION network_rows_logged() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ws uuid := nullif(current_setting('app.workspace_id', true), '')::uuid;
  by_job boolean := coalesce(current_setting('app.network_writer', true), '') = 'job';
  changed bigint;
  logged boolean;
  next_version bigint;
BEGIN
  IF ws IS NULL THEN
    -- A write outside any workspace (the owner's maintenance): every copy is to be rebuilt.
    UPDATE network_versions SET version = version + 1, unlogged_until = version + 1, requested_version = version + 1;
    RETURN NULL;
  END IF;
  -- Not for a workspace being deleted: its rows go with it, and so does its version.
  IF NOT EXISTS (SELECT 1 FROM workspaces WHERE id = ws) THEN
    RETURN NULL;
  END IF;
  -- Each trigger names only its own transition table, and a branch is planned only when it runs.
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO changed FROM old_rows;
  ELSE
    SELECT count(*) INTO changed FROM new_rows;
  END IF;
  IF changed = 0 THEN
    RETURN NULL;
  END IF;
  logged := changed <= 25000;
  INSERT INTO network_versions AS v (workspace_id, version, unlogged_until, requested_version)
  VALUES (ws, 1, CASE WHEN logged THEN 0 ELSE 1 END, CASE WHEN by_job THEN 0 ELSE 1 END)
  ON CONFLICT (workspace_id) DO UPDATE
    SET version = v.version + 1,
        unlogged_until = CASE WHEN logged THEN greatest(v.unlogged_until, v.version + 1 - 256) ELSE v.version + 1 END,
        requested_version = CASE WHEN by_job THEN v.requested_version ELSE v.version + 1 END
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
CREATE OR REPLACE FUNCTION network_rows_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE network_versions SET version = version + 1, unlogged_until = version + 1, requested_version = version + 1;
  RETURN NULL;
END $$;
