ALTER TABLE "address_book_entries" ADD COLUMN "organization" text;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "name_source" text DEFAULT 'domain' NOT NULL;--> statement-breakpoint
-- Names from before the sources were kept: a domain company still under its guessed name came from the
-- domain; one known by name only came from LinkedIn; any other name came from a list.
UPDATE "companies" SET "name_source" = CASE
  WHEN "domain" IS NULL THEN 'linkedin'
  WHEN "name" = initcap(split_part("domain", '.', 1)) THEN 'domain'
  ELSE 'list' END;
