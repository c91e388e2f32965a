-- Every API process keeps the members it verified for a few seconds (plugins/session-cache.ts). A
-- member whose role changes or who is removed, by the product, the CLI or anyone's SQL, is told to
-- every process at commit by this notice, so none of them keeps the old role past the notice.
CREATE FUNCTION notify_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('warmpath_members', OLD.workspace_id::text || ':' || OLD.id::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_member_changed AFTER DELETE OR UPDATE OF role ON users
  FOR EACH ROW EXECUTE FUNCTION notify_member_changed();
