CREATE TABLE "website_visitors" (
	"workspace_id" uuid NOT NULL,
	"anonymous_id" text NOT NULL,
	"person_id" uuid NOT NULL,
	"identified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "website_visitors_workspace_id_anonymous_id_pk" PRIMARY KEY("workspace_id","anonymous_id")
);
--> statement-breakpoint
CREATE TABLE "tracking_sites" (
	"key" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"origins" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "tracking_sites_workspace_id_unique" UNIQUE("workspace_id")
);
--> statement-breakpoint
ALTER TABLE "website_events" ADD COLUMN "anonymous_id" text;--> statement-breakpoint
ALTER TABLE "website_events" ADD COLUMN "referrer" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "tracking_pricing_patterns" text[] DEFAULT '{/pricing*}' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "tracking_many_pages" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "tracking_many_pages_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "website_visitors" ADD CONSTRAINT "website_visitors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_sites" ADD CONSTRAINT "tracking_sites_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "website_events_anonymous_idx" ON "website_events" USING btree ("workspace_id","anonymous_id");--> statement-breakpoint
SELECT enable_tenant_rls('website_visitors');
