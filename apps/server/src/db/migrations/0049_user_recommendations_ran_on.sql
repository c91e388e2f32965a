ALTER TABLE "users" ADD COLUMN "recommendations_ran_on" date;--> statement-breakpoint
-- Users already served by a daily run keep their mornings: only newcomers wait for a first run. The
-- owner lifts the forced tenant rule for this one statement, which reads and writes every workspace.
ALTER TABLE "users" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "workspaces" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "users" u SET "recommendations_ran_on" = w."recommendations_ran_on" FROM "workspaces" w WHERE w."id" = u."workspace_id";--> statement-breakpoint
ALTER TABLE "workspaces" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;
