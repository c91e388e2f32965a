ALTER TABLE "accounts" ADD COLUMN "sort_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- An account's sort name is its company's name in lower case, set as the account is written...
CREATE FUNCTION accounts_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sort_name := coalesce((SELECT lower(c.name) FROM companies c
                              WHERE c.workspace_id = NEW.workspace_id AND c.id = NEW.company_id), '');
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_sort_name BEFORE INSERT OR UPDATE OF company_id ON accounts
  FOR EACH ROW EXECUTE FUNCTION accounts_sort_name();
--> statement-breakpoint
-- ...and follows its company's renames (an import, LinkedIn's name, a merge of companies). Only a real
-- change calls it: an import's upsert of an unchanged name costs nothing.
CREATE FUNCTION companies_name_to_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts SET sort_name = lower(NEW.name)
   WHERE workspace_id = NEW.workspace_id AND company_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_name_to_accounts AFTER UPDATE OF name ON companies
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION companies_name_to_accounts();
--> statement-breakpoint
UPDATE "accounts" a SET "sort_name" = lower(c."name")
  FROM "companies" c WHERE c."workspace_id" = a."workspace_id" AND c."id" = a."company_id";--> statement-breakpoint
CREATE INDEX "accounts_sort_idx" ON "accounts" USING btree ("workspace_id","sort_name","id");
