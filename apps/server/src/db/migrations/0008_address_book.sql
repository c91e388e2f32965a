CREATE TABLE "address_book_entries" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "address_book_entries_workspace_id_user_id_person_id_source_pk" PRIMARY KEY("workspace_id","user_id","person_id","source")
);
--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_book_person_idx" ON "address_book_entries" USING btree ("workspace_id","person_id");