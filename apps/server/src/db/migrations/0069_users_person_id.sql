ALTER TABLE "users" ADD COLUMN "person_id" uuid;--> statement-breakpoint
-- A member's person record follows their e-mail: found as the member is written...
CREATE FUNCTION users_person_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.person_id := (SELECT p.id FROM people p WHERE p.workspace_id = NEW.workspace_id AND p.email = lower(NEW.email));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_person_id BEFORE INSERT OR UPDATE OF email ON users
  FOR EACH ROW EXECUTE FUNCTION users_person_id();
--> statement-breakpoint
-- ...and as people are written: per statement, one join of the statement's rows with the members (a
-- sync or an import adds people by the ten thousand; a trigger per row looked each one up).
CREATE FUNCTION people_added_to_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET person_id = a.id
    FROM added a
   WHERE u.workspace_id = a.workspace_id AND lower(u.email) = a.email AND u.person_id IS DISTINCT FROM a.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER people_added_to_users AFTER INSERT ON people
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION people_added_to_users();
--> statement-breakpoint
CREATE FUNCTION people_removed_from_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET person_id = NULL
    FROM removed r
   WHERE u.workspace_id = r.workspace_id AND u.person_id = r.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER people_removed_from_users AFTER DELETE ON people
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION people_removed_from_users();
--> statement-breakpoint
-- A person's e-mail rarely changes (filled in where it was missing): a row trigger, called only then.
CREATE FUNCTION people_email_to_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET person_id = (SELECT p.id FROM people p WHERE p.workspace_id = u.workspace_id AND p.email = lower(u.email))
   WHERE u.workspace_id = NEW.workspace_id AND (u.person_id = NEW.id OR lower(u.email) = NEW.email);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER people_email_to_users AFTER UPDATE OF email ON people
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION people_email_to_users();
--> statement-breakpoint
UPDATE "users" u SET "person_id" = p."id"
  FROM "people" p WHERE p."workspace_id" = u."workspace_id" AND p."email" = lower(u."email");
