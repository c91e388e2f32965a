CREATE TABLE "mail_correspondents" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"address_hash" text NOT NULL,
	"domain" text NOT NULL,
	"wrote" boolean DEFAULT false NOT NULL,
	"written" boolean DEFAULT false NOT NULL,
	CONSTRAINT "mail_correspondents_workspace_id_user_id_address_hash_pk" PRIMARY KEY("workspace_id","user_id","address_hash")
);
--> statement-breakpoint
CREATE TABLE "privacy_blocklist" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"entry" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_blocklist_workspace_id_user_id_entry_pk" PRIMARY KEY("workspace_id","user_id","entry")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sharing_level" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "accepts_intros" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_intro_cap" integer;--> statement-breakpoint
ALTER TABLE "mail_correspondents" ADD CONSTRAINT "mail_correspondents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_blocklist" ADD CONSTRAINT "privacy_blocklist_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT enable_tenant_rls('privacy_blocklist');--> statement-breakpoint
SELECT enable_tenant_rls('mail_correspondents');
