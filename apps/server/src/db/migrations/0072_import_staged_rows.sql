-- A received import's rows wait here for its merge, which a worker runs as a job (decision 0037).
CREATE TABLE "import_staged_rows" (
	"workspace_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"line" bigint NOT NULL,
	"reason" text,
	"values" text[],
	CONSTRAINT "import_staged_rows_workspace_id_import_id_line_pk" PRIMARY KEY("workspace_id","import_id","line")
);
--> statement-breakpoint
ALTER TABLE "import_staged_rows" ADD CONSTRAINT "import_staged_rows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT enable_tenant_rls('import_staged_rows');
