CREATE TABLE "companies" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"size_bucket" text,
	"industry" text,
	"type" text,
	"country" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "companies_workspace_domain_key" UNIQUE("workspace_id","domain")
);
--> statement-breakpoint
CREATE TABLE "interaction_participants" (
	"workspace_id" uuid NOT NULL,
	"interaction_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "interaction_participants_workspace_id_interaction_id_person_id_role_pk" PRIMARY KEY("workspace_id","interaction_id","person_id","role")
);
--> statement-breakpoint
CREATE TABLE "interactions" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"source_user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"participant_count" integer NOT NULL,
	CONSTRAINT "interactions_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "interactions_source_key" UNIQUE("workspace_id","source_user_id","kind","external_id")
);
--> statement-breakpoint
CREATE TABLE "linkedin_connections" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"connected_on" timestamp with time zone,
	"company_name" text,
	"position" text,
	CONSTRAINT "linkedin_connections_workspace_id_user_id_person_id_pk" PRIMARY KEY("workspace_id","user_id","person_id")
);
--> statement-breakpoint
CREATE TABLE "people" (
	"workspace_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"full_name" text NOT NULL,
	"email" text,
	"linkedin_url" text,
	"phone" text,
	"title" text,
	"company_id" uuid,
	"avatar_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "people_workspace_id_id_pk" PRIMARY KEY("workspace_id","id"),
	CONSTRAINT "people_workspace_email_key" UNIQUE("workspace_id","email"),
	CONSTRAINT "people_workspace_linkedin_key" UNIQUE("workspace_id","linkedin_url")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interaction_participants" ADD CONSTRAINT "interaction_participants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interactions" ADD CONSTRAINT "interactions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_connections" ADD CONSTRAINT "linkedin_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interaction_participants_person_idx" ON "interaction_participants" USING btree ("workspace_id","person_id");--> statement-breakpoint
CREATE INDEX "interactions_workspace_time_idx" ON "interactions" USING btree ("workspace_id","occurred_at");--> statement-breakpoint
CREATE INDEX "linkedin_connections_person_idx" ON "linkedin_connections" USING btree ("workspace_id","person_id");--> statement-breakpoint
CREATE INDEX "people_workspace_company_idx" ON "people" USING btree ("workspace_id","company_id");